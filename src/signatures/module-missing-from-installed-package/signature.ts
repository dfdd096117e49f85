import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'module-missing-from-installed-package',
  title: 'an installed package lacks a module its dependent imports',
  category: 'dependency-mismatch',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'lmdeploy'],
  keywords: ['no module named'],
  match: {
    exception: 'ModuleNotFoundError',
    // `pkg.sub` where pkg imports fine. Not compiled parts (`._C`, `common_ops`: missing builds), not
    // namespace roots (google.protobuf is protobuf missing), not transformers' remote-code cache.
    message:
      /No module named '(?<module>(?<pkg>(?!google\.|nvidia\.|transformers_modules\.)\w+)\.(?!_|[\w.]*\._|[\w.]*common_ops)[\w.]+)/,
  },
  explanation:
    '{pkg} is installed, but it has no module {module}. The code importing it was written for another release of ' +
    '{pkg}, in which that module exists: it was renamed or removed in the version you have, or added after it. ' +
    'This is a version skew between two packages, typically an engine importing internals of a dependency that ' +
    'pip upgraded past the version the engine was released with.',
  fix: 'pip check (it names the {pkg} version each package requires), then pip install "{pkg}==<that version>"',
  action: [
    { kind: 'inspect-packages' },
    { kind: 'step', text: 'then install the {pkg} version it names (in a container: in the image)' },
  ],
  alternative:
    'Or upgrade the package that does the import (the file in the last frames of the traceback) to a release ' +
    'written for your {pkg}.',
  references: ['https://github.com/sgl-project/sglang/issues/362'],
});
