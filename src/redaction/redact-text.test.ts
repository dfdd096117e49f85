import { describe, expect, it } from 'vitest';
import { redactText } from './redact-text.js';

// Fake credentials with the real shapes. AKIAIOSFODNN7EXAMPLE and its secret are AWS's documented examples.
const HF = 'hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567';
const SK = 'sk-AbCdEfGhIjKlMnOpQrStT3BlbkFJ0123456789AbCdEfGh';
const SK_PROJ = 'sk-proj-Ab3dEf6hIj9kLmN0pQrStUvWxYz_12-AbCdEfGhIjKlMnOp';
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.abc123def456';
const AWS_ID = 'AKIAIOSFODNN7EXAMPLE';
const AWS_SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const GHP = 'ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';

describe('redactText redacts', () => {
  it.each([
    // Hugging Face tokens
    ['HF token in prose', `Invalid token ${HF} for repo x`, 'Invalid token hf_[REDACTED] for repo x'],
    [
      'HF token in an exception',
      `HfHubHTTPError: 401 Unauthorized (token=${HF})`,
      'HfHubHTTPError: 401 Unauthorized (token=[REDACTED])',
    ],
    ['HF token in quotes', `using token '${HF}'`, "using token 'hf_[REDACTED]'"],
    // OpenAI-style keys
    ['legacy sk- key', `Incorrect API key provided: ${SK}.`, 'Incorrect API key provided: sk-[REDACTED].'],
    ['sk-proj- key', `key=${SK_PROJ}`, 'key=sk-[REDACTED]'],
    // Authorization headers
    ['Authorization: Bearer', `Authorization: Bearer ${JWT}`, 'Authorization: Bearer [REDACTED]'],
    [
      'short token after Authorization',
      "curl -H 'Authorization: Bearer abc' http://x",
      "curl -H 'Authorization: Bearer [REDACTED]' http://x",
    ],
    [
      'bearer in JSON headers',
      '{"headers": {"authorization": "bearer tok3n-value"}}',
      '{"headers": {"authorization": "bearer [REDACTED]"}}',
    ],
    ['Basic credentials', 'Authorization: Basic dXNlcjpwYXNzd29yZA==', 'Authorization: Basic [REDACTED]'],
    ['bare Bearer token', `sent bearer ${JWT} upstream`, 'sent bearer [REDACTED] upstream'],
    // AWS
    ['AWS access key id', `aws_access_key_id=${AWS_ID}`, 'aws_access_key_id=AKIA[REDACTED]'],
    ['AWS session key id', 'key ASIAIOSFODNN7EXAMPLE expired', 'key ASIA[REDACTED] expired'],
    [
      'aws_secret_access_key with spaces',
      `aws_secret_access_key = ${AWS_SECRET}`,
      'aws_secret_access_key = [REDACTED]',
    ],
    ['AWS_SECRET_ACCESS_KEY env', `AWS_SECRET_ACCESS_KEY=${AWS_SECRET}`, 'AWS_SECRET_ACCESS_KEY=[REDACTED]'],
    // Flags in logged argument lists
    [
      '--api-key X',
      `vllm serve m --api-key ${SK} --port 8000`,
      'vllm serve m --api-key [REDACTED] --port 8000',
    ],
    ['--api-key=X', '--api-key=s3cret-value', '--api-key=[REDACTED]'],
    ['--hf-token X', `--hf-token ${HF}`, '--hf-token [REDACTED]'],
    ['--token X', '--token abc123', '--token [REDACTED]'],
    ['--password X', '--password hunter2', '--password [REDACTED]'],
    ['--secret X', '--secret "two words"', '--secret "[REDACTED]"'],
    ['--client-secret=X', '--client-secret=xyz', '--client-secret=[REDACTED]'],
    [
      'Python argv list',
      "argv=['serve', '--api-key', 'mysecret', '--port', '8000']",
      "argv=['serve', '--api-key', '[REDACTED]', '--port', '8000']",
    ],
    // Python and Rust reprs
    [
      'vLLM non-default args',
      "non-default args: {'model': 'meta-llama/Llama-3.1-8B', 'api_key': 'token-abc123'}",
      "non-default args: {'model': 'meta-llama/Llama-3.1-8B', 'api_key': '[REDACTED]'}",
    ],
    [
      'vLLM api_key list',
      "{'api_key': ['k1secret', 'k2secret']}",
      "{'api_key': ['[REDACTED]', '[REDACTED]']}",
    ],
    [
      'Namespace(...)',
      "Namespace(host=None, api_key='token-abc123', model='x')",
      "Namespace(host=None, api_key='[REDACTED]', model='x')",
    ],
    [
      'TGI Some("X")',
      'Args { api_key: Some("abc123"), port: 80 }',
      'Args { api_key: Some("[REDACTED]"), port: 80 }',
    ],
    ['hf_token kwarg', "hf_token='abc'", "hf_token='[REDACTED]'"],
    ['JSON password', '{"password": "pw"}', '{"password": "[REDACTED]"}'],
    ['camelCase key', "{apiKey: 'abc'}", "{apiKey: '[REDACTED]'}"],
    // Environment assignments
    ['HF_TOKEN=', 'HF_TOKEN=abc', 'HF_TOKEN=[REDACTED]'],
    ['HF_TOKEN=hf_...', `HF_TOKEN=${HF}`, 'HF_TOKEN=[REDACTED]'],
    ['HUGGING_FACE_HUB_TOKEN=', 'HUGGING_FACE_HUB_TOKEN=abc', 'HUGGING_FACE_HUB_TOKEN=[REDACTED]'],
    ['OPENAI_API_KEY=', 'export OPENAI_API_KEY="abc def"', 'export OPENAI_API_KEY="[REDACTED]"'],
    ['*_SECRET=', 'MY_SECRET=x1', 'MY_SECRET=[REDACTED]'],
    ['*_PASSWORD=', 'DB_PASSWORD=x1 next', 'DB_PASSWORD=[REDACTED] next'],
    ['systemd Environment=', 'Environment=HF_TOKEN=abc', 'Environment=HF_TOKEN=[REDACTED]'],
    ['docker -e', 'docker run -e HF_TOKEN=abc -e X=1 img', 'docker run -e HF_TOKEN=[REDACTED] -e X=1 img'],
    ['value in a Markdown code span', '`HF_TOKEN=abc123` is set', '`HF_TOKEN=[REDACTED]` is set'],
    ['query parameter', 'GET /x?token=abc123&page=2', 'GET /x?token=[REDACTED]&page=2'],
    // Passwords in URLs
    ['URL password', 'postgresql://admin:hunter2@db:5432/x', 'postgresql://admin:[REDACTED]@db:5432/x'],
    ['URL password, no user', 'redis://:pw@cache:6379', 'redis://:[REDACTED]@cache:6379'],
    ['HTTPS URL token', 'https://user:tok@huggingface.co/x', 'https://user:[REDACTED]@huggingface.co/x'],
    // GitHub tokens
    ['GitHub token', `GITHUB token ${GHP}`, 'GITHUB token ghp_[REDACTED]'],
  ])('%s', (_name, input, expected) => {
    expect(redactText(input)).toBe(expected);
  });
});

describe('redactText leaves look-alikes alone', () => {
  it.each([
    ['hf_hub', 'from huggingface_hub import hf_hub_download'],
    ['hf_transfer', 'HF_HUB_ENABLE_HF_TRANSFER=1 requires hf_transfer'],
    [
      'TGI hf_hub target',
      'INFO hf_hub: /src/lib.rs:55: Token file not found "/root/.cache/huggingface/token"',
    ],
    ['sk- inside words', 'disk-cache risk-free task-sk-manager'],
    ['sk- hyphenated name', 'sk-learn sk-resnet50-finetuned-imagenet'],
    ['model names', "model='meta-llama/Meta-Llama-3.1-8B-Instruct' served moonshotai/Kimi-K2.5"],
    ['sha256 digest', 'sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'],
    ['blob path', '/root/.cache/huggingface/hub/models--x--y/blobs/9f86d081884c7d659a2feaa0c55ad015a3bf4f1b'],
    [
      'file path',
      'File "/opt/vllm/lib/python3.12/site-packages/vllm/entrypoints/openai/api_server.py", line 1',
    ],
    ['Bearer in prose', 'Requests must carry a Bearer token in the Authorization header'],
    ['Bearer authentication', 'Bearer authentication/authorization failed'],
    ['api_key=None', "ServerArgs(model_path='/m', api_key=None, tokenizer_path='/m')"],
    ['api_key: None', 'Args { api_key: None, hf_token: None }'],
    ["'api_key': None", "{'api_key': None}"],
    ['use_auth_token=True', 'use_auth_token=True'],
    ['tokenizer args', "tokenizer='meta-llama/Llama-3.1-8B', tokenizer_mode='auto', max_tokens=512"],
    [
      'special tokens',
      "eos_token='</s>', pad_token='<pad>', speculative_token_map=None, max_num_batched_tokens=8192",
    ],
    ['harmless env', 'PWD=/root HF_HOME=/data TOKENIZERS_PARALLELISM=false CUDA_VISIBLE_DEVICES=0,1'],
    ['host and port URLs', 'http://0.0.0.0:8000/v1 and http://localhost:8000/health'],
    ['flag named in prose', 'set HF_TOKEN or pass --hf-token to log in'],
    ['token: word', 'Invalid token: expired'],
    [
      'SGLang token count',
      '[2025-09-03 18:33:19 TP0] Decode batch. #running-req: 1, #token: 85, token usage: 0.00',
    ],
    ['variable reference', 'HF_TOKEN=$HF_TOKEN --api-key ${KEY} --token <your-token>'],
    ['email and ssh remote', 'user@example.com git@github.com:org/repo.git'],
    ['short AKIA', 'AKIAXYZ and XAKIAIOSFODNN7EXAMPLEX'],
    ['empty set', 'Failed core proc(s): {}'],
    ['already redacted', 'HF_TOKEN=[REDACTED] hf_[REDACTED] Bearer [REDACTED] https://u:[REDACTED]@h'],
    ['placeholder in Markdown', 'pass a read token: `-e HF_TOKEN=hf_...` for the container'],
    [
      'placeholders',
      'Tokens (HF_TOKEN=...) go in the env file; HF_TOKEN=xxxx; --api-key sk-...; password: ***',
    ],
    ['password file path', 'password_file=/run/secrets/db ssl_keyfile=/etc/key.pem'],
  ])('%s', (_name, input) => {
    expect(redactText(input)).toBe(input);
  });
});
