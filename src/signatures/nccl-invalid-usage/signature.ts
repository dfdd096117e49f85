import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'nccl-invalid-usage',
  title: 'NCCL refused the setup (invalid usage, e.g. two ranks on one GPU)',
  category: 'distributed-nccl',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'lmdeploy'],
  keywords: [
    'invalid usage',
    'invalid argument',
    'ncclinvalidusage',
    'ncclinvalidargument',
    'duplicate gpu detected',
  ],
  match: {
    message:
      /NCCL error[^\n]*?invalid (?:usage|argument)|ncclInvalid(?:Usage|Argument)|Duplicate GPU detected : rank \d+ and rank \d+ both on CUDA device \w+/,
  },
  explanation:
    'NCCL checked how the ranks of the communicator were set up and refused it before any collective ran. The most ' +
    'common reason is that two ranks landed on the same GPU ("Duplicate GPU detected"): CUDA_VISIBLE_DEVICES lists a ' +
    'device twice or is set differently per worker, the container exposes fewer GPUs than the tensor/pipeline ' +
    'parallel size, or two servers were started with the same devices.',
  fix:
    'Give every rank its own GPU: make `--tensor-parallel-size` x `--pipeline-parallel-size` at most the number of GPUs ' +
    'visible in the container (`nvidia-smi -L`), with distinct CUDA_VISIBLE_DEVICES entries, and rerun with ' +
    '`NCCL_DEBUG=WARN` to see which check failed.',
  action: [
    {
      kind: 'step',
      text: 'Give every rank its own GPU: tensor x pipeline parallel size at most the GPUs visible where the server runs (`nvidia-smi -L`), distinct CUDA_VISIBLE_DEVICES, and rerun with NCCL_DEBUG=WARN to see which check failed',
    },
  ],
  alternative:
    'With Ray, make sure each node advertises its real GPU count (`ray status`) so two workers are never packed onto ' +
    'one device; an NCCL library older than the one torch was built with can also report invalid usage.',
  references: [
    'https://github.com/NVIDIA/nccl/blob/master/src/init.cc',
    'https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/troubleshooting.html',
  ],
});
