import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'trtllm-architecture-not-supported',
  title: 'TensorRT-LLM has no implementation of this model architecture',
  category: 'model-unsupported-arch',
  engines: ['trtllm'],
  keywords: ['unknown architecture for automodelforcausallm', 'the given huggingface model architecture'],
  match: {
    // PyTorch backend (_torch/models/modeling_auto.py) and the TensorRT backend (models/automodel.py).
    message:
      /(?:Unknown architecture for AutoModelForCausalLM: |The given huggingface model architecture )(?<arch>\w+)/,
  },
  explanation:
    "TensorRT-LLM picks its own model class from the architectures entry of the checkpoint's config.json, and the " +
    'installed release has none for this one. TensorRT-LLM implements each architecture itself (it does not fall back ' +
    'to transformers), so newer or less common models are missing until a release adds them.',
  fix: 'Check the support matrix of your TensorRT-LLM release and upgrade (`pip install -U tensorrt_llm`, or a newer NGC release container) to one that lists {arch}.',
  action: [
    {
      kind: 'step',
      text: 'Check the support matrix of your TensorRT-LLM release and upgrade to one that lists {arch}:',
    },
    { kind: 'install', requirements: [], engine: true, options: ['--upgrade'] },
    { kind: 'step', text: 'or a newer NGC release container' },
  ],
  alternative:
    'Serve the model with vLLM or SGLang, which fall back to the transformers implementation for many architectures, ' +
    'or register an out-of-tree model class with `@register_auto_model`.',
  references: [
    'https://github.com/NVIDIA/TensorRT-LLM/blob/main/tensorrt_llm/_torch/models/modeling_auto.py',
    'https://github.com/NVIDIA/TensorRT-LLM/blob/main/tensorrt_llm/models/automodel.py',
    'https://nvidia.github.io/TensorRT-LLM/reference/support-matrix.html',
  ],
});
