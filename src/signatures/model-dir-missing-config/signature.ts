import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'model-dir-missing-config',
  title: 'the model path has no usable config.json',
  category: 'config-invalid',
  engines: ['vllm', 'sglang', 'tgi', 'lmdeploy', 'trtllm'],
  keywords: [
    'does not appear to have a file named config.json',
    'does not appear to have a file named params.json',
    'should have a `model_type` key in its',
    'please provide a hugging face model as the input',
    "'model_type'",
  ],
  match: {
    message:
      /(?<path>\S+) does not appear to have a file named (?:config|params)\.json|Unrecognized model in (?<dir>\S+?)\. Should have a `model_type` key in its|Please provide a Hugging Face model as the input to the LLM API|^'model_type'$/,
  },
  explanation:
    'The server was pointed at a directory (or repo) that is not a Hugging Face model folder: config.json is missing, ' +
    'or it has no model_type. Usually the path is one level off (the parent of the snapshot, a GGUF or LoRA adapter ' +
    'folder, a mount that is empty in the container), or a download stopped before config.json arrived.',
  fix: 'Point --model / --model-path / --model-id at the folder that contains config.json (`ls <path>/config.json` inside the container), or download the full repository: `huggingface-cli download <repo> --local-dir <path>`.',
  action: [
    {
      kind: 'step',
      text: 'Point the model option at the folder that contains config.json; check it where the server runs:',
    },
    { kind: 'command', argv: ['ls', '{path}/config.json'], where: 'server' },
    { kind: 'step', text: 'or download the full repository: huggingface-cli download REPO --local-dir DIR' },
  ],
  alternative:
    'For a LoRA adapter pass the base model as the model and the adapter separately (vLLM `--lora-modules`); for a ' +
    'GGUF file use an engine that reads GGUF, or pass the .gguf file with the original repo as --tokenizer.',
  references: [
    'https://github.com/huggingface/transformers/blob/main/src/transformers/models/auto/configuration_auto.py',
    'https://github.com/huggingface/transformers/blob/main/src/transformers/utils/hub.py',
    'https://github.com/NVIDIA/TensorRT-LLM/blob/main/tensorrt_llm/models/automodel.py',
  ],
});
