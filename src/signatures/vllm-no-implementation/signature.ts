import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'vllm-no-implementation',
  title: 'vLLM has no implementation of this architecture (and no usable fallback)',
  category: 'model-unsupported-arch',
  engines: ['vllm'],
  keywords: ['has no vllm implementation and the transformers implementation'],
  match: {
    message:
      /(?<arch>\w+) has no vLLM implementation and the Transformers implementation is not compatible with vLLM/,
  },
  explanation:
    "The config.json names {arch}, which is not in vLLM's model registry, so vLLM tried its transformers fallback " +
    '(running the transformers modeling code inside vLLM), and that class does not support what the fallback needs ' +
    "(vLLM's attention interface), or the model is a task/head vLLM cannot run that way, such as a sequence " +
    'classifier or an embedding model with custom code.',
  fix: 'Upgrade vLLM (`pip install -U vllm`) and check its supported-models list for {arch}; if it is there only for another task, pass the task explicitly (`--runner pooling` / `--task embed`).',
  action: [
    { kind: 'install', requirements: ['vllm'], options: ['--upgrade'] },
    {
      kind: 'step',
      text: 'and check its supported-models list for {arch}; if it is there only for another task, pass the task (--runner pooling)',
    },
  ],
  alternative:
    'Serve the model with an engine that implements it, or with plain transformers; older vLLM releases suggested ' +
    '`VLLM_USE_V1=0`, which only helps where the V0 engine still exists.',
  references: [
    'https://github.com/vllm-project/vllm/blob/main/vllm/model_executor/models/registry.py',
    'https://github.com/vllm-project/vllm/issues/15006',
    'https://github.com/vllm-project/vllm/issues/17463',
  ],
});
