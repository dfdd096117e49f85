import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'git-lfs-pointer-instead-of-weights',
  title: 'weight file is a Git LFS pointer, not the real checkpoint',
  category: 'model-load-weights',
  engines: ['vllm', 'sglang', 'tgi', 'lmdeploy', 'trtllm'],
  keywords: ["invalid load key, 'v'", 'git-lfs.github.com'],
  match: {
    message: /invalid load key, 'v'|version https:\/\/git-lfs\.github\.com\/spec/,
  },
  explanation:
    'torch.load opened a checkpoint that starts with the text `version https://git-lfs...`: the model was cloned ' +
    'with git but without Git LFS (or with GIT_LFS_SKIP_SMUDGE=1), so each weight file is a ~130-byte pointer ' +
    'instead of the tensors. The unpickler reads the leading `v` as an opcode and gives up.',
  fix: 'Fetch the real files: `git lfs install && git lfs pull` inside the model directory, or download it with `huggingface-cli download <repo> --local-dir <dir>`; `ls -lh` should then show gigabyte-sized weight files.',
  action: [
    {
      kind: 'step',
      text: 'Fetch the real files inside the model directory (git lfs install && git lfs pull), or download it with huggingface-cli download REPO --local-dir DIR; then the weights are gigabytes:',
    },
    { kind: 'command', argv: ['ls', '-lh'], where: 'server' },
  ],
  alternative:
    'Point the server at the Hub repo id instead of the cloned directory and let it download the weights itself.',
  references: ['https://github.com/huggingface/transformers/issues/26155', 'https://git-lfs.com/'],
});
