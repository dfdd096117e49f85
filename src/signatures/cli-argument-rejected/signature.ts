import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'cli-argument-rejected',
  title: 'the launcher rejected a command-line argument',
  category: 'config-invalid',
  engines: ['vllm', 'sglang', 'lmdeploy', 'trtllm', 'ollama'],
  keywords: [
    'error: unrecognized arguments',
    'error: argument ',
    'error: the following arguments are required',
    'error: ambiguous option',
    'no such option',
    'invalid value for',
    'unknown flag',
    'unknown shorthand flag',
  ],
  match: {
    // argparse (vllm serve, python -m sglang.launch_server, lmdeploy serve), click (trtllm-serve), cobra (ollama).
    message:
      /(?:: error: |\bError: )(?<detail>(?:unrecognized arguments|argument -|the following arguments are required|ambiguous option|No such option|Invalid value for|unknown (?:shorthand )?flag)[^\n]*)/,
  },
  explanation:
    'The command-line parser stopped before the server did anything: {detail}. Options are renamed, removed or ' +
    'restricted to new values between releases (and a launcher script, a Helm chart or a Docker CMD written for ' +
    'another version keeps passing the old ones), or a value has a typo or the wrong type.',
  fix: 'Correct or drop the option it names ({detail}); `vllm serve --help`, `python -m sglang.launch_server --help`, `lmdeploy serve api_server --help` or `trtllm-serve --help` of the installed version list what it accepts.',
  alternative:
    'If the option exists in the docs you follow, you run an older or newer release than they describe: pin the ' +
    'version (`pip show vllm`) or use the matching docs.',
  references: [
    'https://github.com/python/cpython/blob/main/Lib/argparse.py',
    'https://github.com/vllm-project/vllm/blob/main/vllm/utils/argparse_utils.py',
    'https://docs.vllm.ai/en/stable/configuration/engine_args/',
  ],
});
