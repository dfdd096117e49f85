import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'remote-code-package-missing',
  title: "the model's own code imports packages that are not installed",
  category: 'missing-dependency',
  engines: ['vllm', 'sglang', 'tgi', 'lmdeploy', 'trtllm'],
  keywords: ['packages that were not found in your environment'],
  match: {
    message:
      /This modeling file requires the following packages that were not found in your environment: (?<pkgs>[\w.,\s-]+?)\.? Run `pip install (?<install>[^`\n]+)`/,
  },
  explanation:
    'The checkpoint ships its own Python code (trust_remote_code), and before running it transformers scans its ' +
    'imports: {pkgs} cannot be imported here. The scan is textual, so an import the model would only use on some code ' +
    'path (flash_attn is the usual one) is required too.',
  fix: 'pip install {install}',
  action: [{ kind: 'install', requirements: ['{install}'] }],
  alternative:
    'If the package cannot be installed (flash_attn on an unsupported GPU or platform), use a version of the model ' +
    'whose code guards the import, or remove the unconditional import from the cached modeling file.',
  references: [
    'https://github.com/huggingface/transformers/blob/main/src/transformers/dynamic_module_utils.py',
  ],
});
