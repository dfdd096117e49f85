import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'torch-load-weights-only-rejected',
  title: 'torch.load refused a pickle checkpoint in weights-only mode',
  category: 'model-load-weights',
  engines: ['vllm', 'sglang', 'tgi', 'lmdeploy', 'trtllm'],
  keywords: ['weights only load failed'],
  match: {
    message: /Weights only load failed(?:[^\n]*?Unsupported global: GLOBAL (?<global>[\w.]+))?/,
  },
  explanation:
    'The checkpoint is a pickle (.bin/.pt) that contains Python objects beyond plain tensors, and torch.load ran ' +
    'with weights_only=True (the default since PyTorch 2.6, and what the engines pass for safety), so it refused ' +
    'to unpickle them. The file itself is usually fine; it was saved with extra objects (numpy arrays, config ' +
    'classes, a whole model) or by old tooling.',
  fix: 'Convert the checkpoint to safetensors once in a trusted environment (load it with `torch.load(path, weights_only=False)` and save the state_dict with `safetensors.torch.save_file`) and serve the converted directory.',
  alternative:
    'Use a safetensors revision of the model if the repo has one; only when the file is from a trusted source, ' +
    'allow the named global with `torch.serialization.add_safe_globals`.',
  references: [
    'https://github.com/pytorch/pytorch/blob/main/torch/serialization.py',
    'https://pytorch.org/docs/stable/notes/serialization.html#weights-only',
  ],
});
