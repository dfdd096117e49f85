import { defineGrammar } from '../define-grammar.js';

/**
 * UCX, the transport under NIXL's and Open MPI's RDMA: its logger's `[1745700389.902821] [host:6274 :0]
 * ib_mlx5_log.c:179  UCX  ERROR Local protection error on mlx5_0:1/RoCE ...` names the device fault that the
 * transfer library's error after it (`nixlBackendError('NIXL_ERR_BACKEND')`) only classes. Like NCCL's warnings, a
 * library may go on past one.
 */
export default defineGrammar({
  runtime: 'ucx',
  lines: [
    {
      id: 'ucx-error',
      rank: 221,
      pattern: /\bUCX {1,2}ERROR (.+)/,
      message: (m) => m[1] ?? '',
      fatal: false,
      strength: 30,
    },
    // Its warning that a transport the caller needs is missing (`transports 'cuda_ipc','cuda_copy' are not
    // available`): below its errors, above the pointers the transfer library's failure leaves.
    {
      id: 'ucx-warning',
      rank: 222,
      pattern: /\bUCX {1,2}WARN {1,2}(.+)/,
      message: (m) => m[1] ?? '',
      fatal: false,
      strength: 20,
    },
  ],
});
