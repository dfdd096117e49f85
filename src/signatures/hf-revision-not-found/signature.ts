import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'hf-revision-not-found',
  title: 'the requested model revision does not exist on the Hub',
  category: 'auth-or-download',
  engines: ['vllm', 'sglang', 'tgi', 'lmdeploy', 'trtllm'],
  keywords: ['revisionnotfounderror', 'revision not found', 'invalid rev id', 'not a valid git identifier'],
  match: {
    message:
      /RevisionNotFoundError|Revision Not Found for url|Invalid rev id: (?<rev>\S+)|(?<rev2>\S+) is not a valid git identifier \(branch name, tag name or commit id\)/,
    // huggingface_hub prints the URL it asked for after the exception: https://huggingface.co/ORG/NAME/resolve/REV/FILE.
    captures: /huggingface\.co\/(?<repo>[\w.-]+\/[\w.-]+)\/resolve\//,
  },
  explanation:
    'The repository exists, but the branch, tag or commit asked for does not. A `--revision`, ' +
    '`--code-revision` or `--tokenizer-revision` has a typo, points to a branch that was renamed or deleted, or ' +
    'names a commit of another repository.',
  // The Hub's repos are git repositories: git ls-remote lists their branches and tags without a clone.
  action: [
    { kind: 'command', argv: ['git', 'ls-remote', 'https://huggingface.co/{repo}'], where: 'host' },
    {
      kind: 'step',
      text: 'then pass one of the branches, tags or commits it lists for {repo} as the revision, or drop the revision option to use main',
    },
  ],
  fix: 'List the refs with `huggingface-cli repo-refs <repo>` (or the Files tab’s branch menu) and pass an existing one, or drop the revision option to use `main`.',
  alternative:
    'For TGI the option is `--revision`; pin a full 40-character commit hash rather than a short one.',
  references: [
    'https://github.com/huggingface/huggingface_hub/blob/main/src/huggingface_hub/utils/_http.py',
    'https://github.com/huggingface/transformers/blob/main/src/transformers/utils/hub.py',
  ],
});
