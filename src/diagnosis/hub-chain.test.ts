import { describe, expect, it } from 'vitest';
import { categoryOf } from '../evaluation/score-case.js';
import { diagnose } from './index.js';

// fresh-u vllm-5703: httpx's 403, which huggingface_hub raised again as GatedRepoError.
const REQUEST = [
  'Traceback (most recent call last):',
  '  File "/venv/lib/python3.12/site-packages/huggingface_hub/utils/_http.py", line 657, in hf_raise_for_status',
  '    response.raise_for_status()',
  "httpx.HTTPStatusError: Client error '403 Forbidden' for url 'https://huggingface.co/meta-llama/Meta-Llama-3-8B-Instruct/resolve/main/config.json'",
];
const HUB = [
  'Traceback (most recent call last):',
  '  File "/venv/lib/python3.12/site-packages/huggingface_hub/file_download.py", line 1546, in get_hf_file_metadata',
  '    hf_raise_for_status(response)',
  'huggingface_hub.errors.GatedRepoError: 403 Client Error. Cannot access gated repo for url https://huggingface.co/meta-llama/Meta-Llama-3-8B-Instruct/resolve/main/config.json.',
];
const CHAINED = [
  ...REQUEST,
  '',
  'The above exception was the direct cause of the following exception:',
  '',
  ...HUB,
];

describe("a huggingface_hub error raised from its request's failure", () => {
  it("is named where the request failed, and keeps the hub error's kind", () => {
    const d = diagnose(CHAINED.join('\n'));
    expect(d.rootCause?.exception).toBe('httpx.HTTPStatusError');
    expect(categoryOf(d)).toBe('auth-or-download');
  });

  it('is named itself with no chain under it', () => {
    expect(diagnose(HUB.join('\n')).rootCause?.exception).toBe('huggingface_hub.errors.GatedRepoError');
  });

  it('is named itself where only another error came before it, unchained', () => {
    const d = diagnose([...REQUEST, 'INFO 01-01 00:00:00 [x.py:1] retrying with a token', ...HUB].join('\n'));
    expect(d.rootCause?.exception).toBe('huggingface_hub.errors.GatedRepoError');
  });
});
