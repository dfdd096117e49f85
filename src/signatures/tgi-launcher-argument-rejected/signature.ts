import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'tgi-launcher-argument-rejected',
  title: 'text-generation-launcher rejected an argument or environment variable',
  category: 'config-invalid',
  engines: ['tgi'],
  keywords: [
    'error: invalid value',
    'error: unexpected argument',
    'error: the argument',
    'error: a value is required for',
  ],
  match: {
    // clap, the launcher's parser: every flag can also come from its environment variable (QUANTIZE, DTYPE, ...).
    message:
      /error: (?<detail>(?:invalid value|unexpected argument|the argument|a value is required for) '[^\n]*)/,
  },
  explanation:
    'text-generation-launcher parses its flags, and the environment variables of the same names, before it starts ' +
    'any shard, and refused one: {detail}. Values such as --quantize and --dtype are a fixed list that changes ' +
    'between TGI releases, and flags of other servers (vLLM, llama.cpp) are not accepted.',
  fix: 'Fix the flag or its environment variable ({detail}); `docker run ghcr.io/huggingface/text-generation-inference:<tag> --help` prints what this release accepts.',
  alternative:
    'On Inference Endpoints or SageMaker the value comes from the container environment (e.g. HF_MODEL_QUANTIZE, ' +
    'SM_NUM_GPUS): correct it there.',
  references: [
    'https://github.com/huggingface/text-generation-inference/blob/main/launcher/src/main.rs',
    'https://huggingface.co/docs/text-generation-inference/reference/launcher',
  ],
});
