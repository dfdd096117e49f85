import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'package-install-requested',
  title: 'the engine asks for a package to be installed',
  category: 'missing-dependency',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'lmdeploy'],
  keywords: ['pip install'],
  match: {
    exception: /(?:Import|ModuleNotFound|Runtime|Value)Error$/,
    message:
      /[Pp]lease (?:install|run)[^\n]{0,80}?pip install (?:-U |--upgrade )?["'`]?(?<spec>[\w.\-[\]]+(?:[<>=!~]=?[\w.*,<>=!~+-]+)?)/,
  },
  explanation:
    'A feature in use (a quantization method, a model family, a backend) needs {spec}, and the engine checked for ' +
    'it and found it missing or unusable; the message says which package to install. The underlying import error, ' +
    'when printed above, has the details.',
  fix: 'pip install "{spec}"',
  action: [{ kind: 'install', requirements: ['{spec}'] }],
  alternative: 'Or turn off the feature that needs it (e.g. choose another quantization or backend).',
  references: ['https://github.com/vllm-project/vllm/pull/6525'],
  // A wrapper around the real import error, which wins when it is in the log.
  weight: 0.5,
});
