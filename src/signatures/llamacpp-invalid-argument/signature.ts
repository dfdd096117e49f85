import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'llamacpp-invalid-argument',
  title: 'llama.cpp rejected a command-line argument',
  category: 'config-invalid',
  engines: ['llamacpp'],
  keywords: ['error while handling argument', 'invalid argument:', 'unknown argument:'],
  match: {
    message: /(?:error while handling argument "|error: (?:invalid|unknown) argument: )(?<flag>[^"\s]+)/,
  },
  explanation:
    'llama-server (or llama-cli) exited while parsing its command line: {flag} is not an option of this build, or the ' +
    'value given to it is not valid. Flags change between releases (for example --flash-attn now takes on|off|auto), ' +
    'so a launcher script written for another build often triggers this.',
  fix: 'Run `llama-server --help` from the same build and correct or drop {flag}.',
  alternative: 'Or update llama.cpp to the build the script or wrapper was written for.',
  references: [
    'https://github.com/defilantech/LLMKube/issues/147',
    'https://github.com/yazon/flexllama/issues/15',
  ],
});
