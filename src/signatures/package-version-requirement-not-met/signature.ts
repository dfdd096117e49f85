import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'package-version-requirement-not-met',
  title: 'an installed package is outside the version range transformers requires',
  category: 'dependency-mismatch',
  engines: ['vllm', 'sglang', 'tgi', 'lmdeploy'],
  keywords: ['is required for a normal functioning of this module'],
  match: {
    message:
      /(?<req>(?<pkg>[\w.-]+)[<>=!~][^\s]*) is required for a normal functioning of this module, but found [\w.-]+==(?<found>[^\s]*[^\s.])/,
  },
  explanation:
    'transformers checks the versions of its own dependencies when it is imported and found {pkg} {found}, ' +
    'outside the range {req} that this transformers release was made for. Installing or upgrading another ' +
    'package (often with --no-deps, or one that pins {pkg} itself) moved {pkg} without moving transformers.',
  fix: 'pip install "{req}"',
  action: [{ kind: 'install', requirements: ['{req}'] }],
  alternative:
    'Or upgrade transformers to a release that accepts {pkg} {found} (pip install -U transformers), if the ' +
    'engine allows that transformers version.',
  references: ['https://github.com/huggingface/transformers/blob/main/src/transformers/utils/versions.py'],
});
