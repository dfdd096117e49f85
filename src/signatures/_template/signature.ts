// Scaffolded by `npm run new-signature -- <id>`. Replace every value, keep the shape; see
// src/signatures/flashinfer-version-mismatch/signature.ts for a finished one.
import { defineSignature } from '../define-signature.js';

export default defineSignature({
  // Must equal the folder name.
  id: 'template-id',
  title: 'what went wrong, in a few words',
  category: 'other',
  engines: ['vllm'],
  // Lower-case substrings of the root-cause message; one must occur before the patterns run.
  keywords: ['exact words of the message'],
  match: {
    // The last dotted part of the Python exception type; null for a non-Python failure line; omit for any.
    exception: 'RuntimeError',
    // Named groups become {placeholders} in explanation, fix and alternative.
    message: /exact words of the message: (?<value>\S+)/,
  },
  explanation:
    'What happened and why, in two or three sentences, in our own words. Name the captured {value} where it helps.',
  fix: 'the exact command that fixes it, with {value} filled in',
  alternative: 'another way out, when there is one (or delete this field)',
  references: ['https://github.com/OWNER/REPO/issues/NUMBER'],
});
