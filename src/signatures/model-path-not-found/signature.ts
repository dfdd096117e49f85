import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'model-path-not-found',
  title: 'the model path is neither a local folder nor a valid Hub repo id',
  category: 'config-invalid',
  engines: ['vllm', 'sglang', 'tgi', 'lmdeploy', 'trtllm'],
  keywords: [
    'invalid repository id or local directory specified',
    'repo id must',
    'incorrect path_or_model_id',
  ],
  match: {
    // vLLM's summary, huggingface_hub's repo-id validation (a local path that does not exist is taken for a repo
    // id), and transformers' wrapper of it.
    message:
      /Invalid repository ID or local directory specified: '(?<model>[^'\n]+)'|Repo id must (?:be in the form|use alphanumeric chars)[^\n]*?: '(?<id>[^'\n]+)'|Incorrect path_or_model_id: '(?<given>[^'\n]+)'/,
  },
  explanation:
    'The model argument does not exist as a local directory in this process (container) with a config.json in it, so ' +
    'it was taken for a Hugging Face repo id, and it is not one either: an absolute path or a name with a typo. A ' +
    'volume that is not mounted, a relative path run from another working directory, or a Hub cache snapshot mounted ' +
    'without its blobs (its files are symlinks into ../../blobs) all look like this.',
  // The path as the log gives it, checked where the server runs (docker exec, kubectl exec for a container or
  // pod); -L follows a Hub snapshot's symlinks, so a snapshot mounted without its blobs shows as missing. One
  // of the three groups is set: the others' commands are left out.
  action: [
    { kind: 'command', argv: ['ls', '-lL', '{model}/config.json'], where: 'server' },
    { kind: 'command', argv: ['ls', '-lL', '{id}/config.json'], where: 'server' },
    { kind: 'command', argv: ['ls', '-lL', '{given}/config.json'], where: 'server' },
    {
      kind: 'step',
      text: 'if it is not there, mount the model directory (or the whole Hugging Face cache) at that path, or pass the Hub id (org/name) instead',
    },
  ],
  fix: 'Check the path inside the container (`ls -l <path>/config.json`, following symlinks), mount the model directory (or the whole HF cache root) there, or pass the Hub id (`org/name`) instead.',
  alternative:
    'With HF_HUB_OFFLINE=1 a Hub id only works if the full snapshot is already in HF_HOME; download it first with ' +
    '`huggingface-cli download <org/name>`.',
  references: [
    'https://github.com/vllm-project/vllm/blob/main/vllm/transformers_utils/config.py',
    'https://github.com/huggingface/huggingface_hub/blob/main/src/huggingface_hub/utils/_validators.py',
  ],
});
