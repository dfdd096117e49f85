import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'package-below-minimum-version',
  title: 'a required package is older than the engine needs',
  category: 'dependency-mismatch',
  engines: ['sglang'],
  keywords: ['less than the minimum required version'],
  match: {
    message:
      /(?<pkg>[\w.-]+)'? is installed with version (?<have>[^\s,]+),? which is less than the minimum required version (?<want>[^\s,]*[^\s,.])/,
  },
  explanation:
    'SGLang checks the packages it drives when it starts, and refuses to run with {pkg} {have}, older than the ' +
    '{want} this release was written against. It happens when SGLang is upgraded or installed from source into an ' +
    'image or environment that keeps its own older {pkg}; pip does not catch it because the check is stricter ' +
    'than the declared requirements, or the package was installed outside pip.',
  fix: 'pip install "{pkg}>={want}"',
  action: [{ kind: 'install', requirements: ['{pkg}>={want}'] }],
  alternative:
    'For flashinfer, move flashinfer-cubin and flashinfer-jit-cache to the same version as flashinfer-python, or ' +
    "flashinfer's own version check fails next. Or install the SGLang release that matches the {pkg} you have.",
  references: ['https://github.com/redai-studio/Relax/issues/8'],
});
