import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'nccl-watchdog-timeout',
  title: 'NCCL collective timed out (a rank hung)',
  category: 'distributed-nccl',
  engines: ['vllm', 'sglang', 'tgi', 'lmdeploy'],
  keywords: ['watchdog caught collective operation timeout'],
  match: {
    message:
      /Watchdog caught collective operation timeout: WorkNCCL\(SeqNum=\d+, OpType=(?<op>\w+)[^\n]*?\) ran for (?<ms>\d+) milliseconds before timing out/,
  },
  explanation:
    "The {op} collective had been running for {ms} ms without finishing when PyTorch's NCCL watchdog hit the process " +
    'group timeout and aborted the process. The collective itself is rarely the problem: one rank stopped taking part ' +
    '(it crashed, hung, or waits on a different collective), or the interconnect stalled. In vLLM this was seen when ' +
    'CUDA graphs and several NCCL communicators deadlocked each other.',
  fix:
    'Look for the first error on any other rank or node: the timeout is a consequence. If there is none, rerun with ' +
    '`NCCL_DEBUG=INFO`, and with vLLM try `--enforce-eager` (no CUDA graphs) or `--disable-custom-all-reduce`.',
  action: [
    {
      kind: 'step',
      text: 'Look for the first error on any other rank or node: the timeout is a consequence. If there is none, rerun with NCCL_DEBUG=INFO, and try without CUDA graphs:',
    },
    { kind: 'engine-option', option: 'enforce-eager' },
  ],
  alternative:
    'For slow multi-node links, check the network (NCCL_SOCKET_IFNAME, InfiniBand) before raising the timeout.',
  references: ['https://github.com/vllm-project/vllm/issues/2770'],
  weight: 0.6,
});
