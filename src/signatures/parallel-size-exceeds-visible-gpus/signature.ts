import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'parallel-size-exceeds-visible-gpus',
  title: 'more parallel ranks requested than GPUs visible',
  category: 'config-invalid',
  engines: ['vllm'],
  keywords: ['less than max local gpu count', 'less than than max local gpu count'],
  match: {
    message:
      /please (?:set tensor_parallel_size|ensure that world_size) \((?<size>\d+)\) (?:to|is) less than (?:than )?max local gpu count \((?<gpus>\d+)\)/,
  },
  explanation:
    "vLLM's multiprocessing executor runs every rank on this node, and it counted fewer GPUs ({gpus}) than the " +
    "tensor x pipeline parallel size asks for ({size}). CUDA_VISIBLE_DEVICES (or the container's --gpus / " +
    'nvidia.com/gpu request) exposes fewer devices than the command line assumes.',
  fix: 'Make them agree: `--tensor-parallel-size {gpus}` (times `--pipeline-parallel-size` at most {gpus}), or expose more GPUs (`CUDA_VISIBLE_DEVICES=0,1,2,3`, `docker run --gpus all`).',
  action: [
    {
      kind: 'step',
      text: 'Make them agree: at most {gpus} GPUs (tensor times pipeline parallel), or expose more GPUs (CUDA_VISIBLE_DEVICES, docker run --gpus all):',
    },
    { kind: 'engine-option', option: 'tensor-parallel-size', value: '{gpus}' },
  ],
  alternative:
    'To span several nodes, start a Ray cluster and pass `--distributed-executor-backend ray`; the local executor ' +
    'only uses GPUs of one machine.',
  references: [
    'https://github.com/vllm-project/vllm/blob/main/vllm/v1/executor/multiproc_executor.py',
    'https://docs.vllm.ai/en/stable/serving/parallelism_scaling.html',
  ],
});
