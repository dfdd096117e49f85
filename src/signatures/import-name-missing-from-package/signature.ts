import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'import-name-missing-from-package',
  title: 'an installed package lacks a name its dependent imports',
  category: 'dependency-mismatch',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'lmdeploy'],
  keywords: ['cannot import name'],
  match: {
    exception: 'ImportError',
    // A circular import reads "from partially initialized module", which this does not match.
    message: /cannot import name '(?<name>\w+)' from '(?<module>(?<pkg>\w+)[\w.]*)'/,
  },
  explanation:
    "The installed {pkg} has no {name} in {module}. The code importing it (the engine, a plugin or a model's " +
    'remote code) was written for another release of {pkg} in which the name exists, so this is a version skew ' +
    'between two packages: usually {pkg} was upgraded past, or pinned below, what the importing package expects.',
  fix: 'pip check (it names the {pkg} version each package requires), then pip install "{pkg}==<that version>"',
  action: [
    { kind: 'inspect-packages' },
    { kind: 'step', text: 'then install the {pkg} version it names (in a container: in the image)' },
  ],
  alternative:
    'Or upgrade the importing package (the file in the last frame of the traceback) to a release written for ' +
    'your {pkg}.',
  references: [
    'https://github.com/vllm-project/vllm-ascend/pull/2365',
    'https://github.com/MeetKai/functionary/issues/312',
  ],
});
