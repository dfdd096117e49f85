import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'attribute-missing-from-installed-module',
  title: 'an installed module lacks a function its dependent uses',
  category: 'dependency-mismatch',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'lmdeploy'],
  keywords: ['has no attribute'],
  match: {
    exception: 'AttributeError',
    // "partially initialized module" is a circular import, not a version skew.
    message: /(?<!initialized )module '(?<module>(?<pkg>\w+)[\w.]*)' has no attribute '(?<name>\w+)'/,
  },
  explanation:
    'The installed {pkg} has no {name} in {module}: the code calling it was written for another release of ' +
    '{pkg}, where it exists (added later, or removed since). Typical cases are torch older than an engine or ' +
    'kernel package needs (torch.library.custom_op arrived in torch 2.4) and numpy 1.24+ with code that uses ' +
    'removed aliases.',
  fix: 'pip check (it names the {pkg} version each package requires), then pip install "{pkg}==<that version>"',
  action: [
    { kind: 'inspect-packages' },
    { kind: 'step', text: 'then install the {pkg} version it names (in a container: in the image)' },
  ],
  alternative:
    'Or install the release of the calling package (the file in the last frame of the traceback) that matches ' +
    'your {pkg}.',
  references: [
    'https://github.com/mistralai/mistral-inference/issues/222',
    'https://github.com/shawntan/scattermoe/issues/16',
  ],
  // Also raised by plain bugs; a more specific cause nearby should win.
  weight: 0.8,
});
