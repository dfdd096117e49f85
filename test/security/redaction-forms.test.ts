import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { redactText } from '../../src/redaction/index.js';
import { runVigil, tempDir, writeFiles } from '../hostile/cli-harness.js';

// Issue 31, item 5: forms of a secret the previous rules did not see. Each value is made up.
const HF = 'hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567';
const AWS_SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

interface Form {
  form: string;
  text: string;
  /** What must not survive redaction. */
  secret: string;
}

const FORMS: readonly Form[] = [
  {
    form: 'token cut by a line break',
    text: `using hf_AbCdEfGhIjKlMnOp\nQrStUvWxYz01234567 now`,
    secret: 'QrStUvWxYz01234567',
  },
  {
    form: 'token cut by a line break, continued indented',
    text: `HF_TOKEN=hf_AbCdEfGhIjKlMnOpQrSt\r\n    UvWxYz01234567 rejected`,
    secret: 'UvWxYz01234567',
  },
  { form: 'percent-encoded token', text: `GET /login?next=%68%66%5F${HF.slice(3)}`, secret: HF.slice(3) },
  {
    form: 'percent-encoded assignment',
    text: `redirect=https%3A%2F%2Fx%2F%3FHF_TOKEN%3D${HF}`,
    secret: HF.slice(3),
  },
  {
    form: 'percent-encoded AWS secret key',
    text: `signed with ${AWS_SECRET.replaceAll('/', '%2F')} refused`,
    secret: 'bPxRfiCYEXAMPLEKEY',
  },
  { form: 'base64-wrapped token', text: `echo ${base64(HF)} | base64 -d`, secret: base64(HF) },
  {
    form: 'base64-wrapped assignment',
    text: `secret blob ${base64('HF_TOKEN=hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567\n')}`,
    secret: base64('HF_TOKEN=hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567\n').slice(0, 24),
  },
  {
    form: 'sshpass -p',
    text: 'sshpass -p hunter2pass ssh gpu-1 systemctl status vllm',
    secret: 'hunter2pass',
  },
  { form: 'sshpass -p joined', text: '/usr/bin/sshpass -phunter2pass ssh gpu-1', secret: 'hunter2pass' },
  { form: 'mysql -pPASS', text: 'mysql -u vigil -hunter2pass -pdbPa55word models', secret: 'dbPa55word' },
  {
    form: 'mysqldump -pPASS in a list',
    text: `args: ['mysqldump', '-pdbPa55word', 'models']`,
    secret: 'dbPa55word',
  },
  { form: 'mysql --password=', text: 'mysql --password=dbPa55word models', secret: 'dbPa55word' },
  { form: 'redis-cli -a', text: 'redis-cli -h cache -a r3disPa55 ping', secret: 'r3disPa55' },
  { form: 'curl -u user:pass', text: 'curl -u admin:curlPa55word https://x/metrics', secret: 'curlPa55word' },
  {
    form: 'npm token',
    text: 'npm_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789',
    secret: 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789',
  },
  {
    form: 'PyPI token',
    text: 'TWINE pypi-AgEIcHlwaS5vcmcCJGFiY2RlZmdoLWlqa2wtbW5vcC1xcnN0LXV2d3h5ejAxMjM0AAIqWzMsImFiYyJd',
    secret: 'CJGFiY2RlZmdoLWlqa2wtbW5vcC1xcnN0',
  },
  {
    form: 'Groq key',
    text: 'gsk_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefGHIJKLMNOPQR',
    secret: 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefGHIJKLMNOPQR',
  },
  {
    form: '?token= query',
    text: 'GET /v1/models?token=s3cr3tQueryValue HTTP/1.1',
    secret: 's3cr3tQueryValue',
  },
  {
    form: '&access_token= query',
    text: 'GET /v1/models?a=1&access_token=s3cr3tQueryValue',
    secret: 's3cr3tQueryValue',
  },
  {
    form: 'X-Amz-Signature query',
    text: 'GET /b/o?X-Amz-Signature=0a1b2c3d4e5f60718293 200',
    secret: '0a1b2c3d4e5f60718293',
  },
  { form: 'bare AWS secret key after key=', text: `aws key=${AWS_SECRET}`, secret: AWS_SECRET },
  { form: 'bare AWS secret key with padding after it', text: `aws ${AWS_SECRET}==`, secret: AWS_SECRET },
];

describe('redactText sees each form', () => {
  it.each(FORMS.map((f) => [f.form, f] as const))('%s', (_form, { text, secret }) => {
    expect(text).toContain(secret);
    expect(redactText(text)).not.toContain(secret);
  });
});

describe('and leaves look-alikes alone', () => {
  it.each([
    ['ssh -p is a port', 'ssh -p 2222 gpu-1'],
    ['mysql -P is a port, -p alone prompts', 'mysql -P 3306 -p models'],
    ['sshpass -f names a file', 'sshpass -f /etc/pass ssh gpu-1'],
    ['-p of another program', 'docker run -p 8000:8000 vllm/vllm-openai'],
    ['a command after a separator', 'mysql -h db; python -pOPTIMIZE x.py'],
    ['base64 of plain text', `note ${base64('hello world, the model loaded fine')}`],
    ['percent-encoding with no secret', 'GET /v1/models/Qwen%2FQwen2.5-7B HTTP/1.1'],
    ['two lines of prose', 'loading the model\nweights took 3 s'],
    ['a path cut by a line break', 'File /opt/venv/lib/python3.12/site-\npackages/vllm/engine.py'],
    ['a query without a secret name', 'GET /v1/models?limit=20&order=desc'],
  ])('%s', (_name, text) => {
    expect(redactText(text)).toBe(text);
  });
});

/** A crash whose exception message holds the text, its later lines continuing the message. */
function crashLog(text: string): string {
  return [
    'INFO 01-01 00:00:00 [api_server.py:1] vLLM API server version 0.11.0',
    'Traceback (most recent call last):',
    '  File "/opt/venv/lib/python3.12/site-packages/vllm/engine.py", line 10, in start',
    '    raise RuntimeError(msg)',
    `RuntimeError: upstream refused ${text}`,
    '',
  ].join('\n');
}

describe.each(['text', 'markdown', 'json'])('diagnose --format %s', (format) => {
  it.each(FORMS.map((f) => [f.form, f] as const))('%s', async (_form, { text, secret }) => {
    const dir = await writeFiles({ 'server.log': crashLog(text) });
    const plain = await runVigil(['diagnose', join(dir, 'server.log'), '--format', format, '--no-redact']);
    const redacted = await runVigil(['diagnose', join(dir, 'server.log'), '--format', format]);
    expect(redacted.code).toBe(1);
    // The text report shows a message's first line only.
    if (format !== 'text' || !text.includes('\n'))
      expect(plain.stdout, 'the report shows the secret unredacted').toContain(secret.slice(0, 10));
    expect(redacted.stdout + redacted.stderr).not.toContain(secret);
  });

  it('keeps no part of a token whose rest is on the next line (the evidence shows one line)', async () => {
    const dir = await writeFiles({
      'server.log': crashLog('using hf_AbCdEfGhIjKlMnOp\nQrStUvWxYz01234567 now'),
    });
    const redacted = await runVigil(['diagnose', join(dir, 'server.log'), '--format', format]);
    expect(redacted.stdout).not.toContain('AbCdEfGhIjKlMnOp');
  });
});

describe('run', () => {
  it("a token cut between two of the server's last lines", async () => {
    const script = `console.log(${JSON.stringify('starting with hf_AbCdEfGhIjKlMnOp')}); console.log('QrStUvWxYz01234567 as the token'); process.exit(3);`;
    const args = ['run', '--no-preflight', '--no-history', '--quiet', '--'];
    const plain = await runVigil(['run', '--no-redact', ...args.slice(1), process.execPath, '-e', script]);
    const redacted = await runVigil([...args, process.execPath, '-e', script]);
    expect(redacted.code).toBe(3);
    expect(plain.stdout).toContain('QrStUvWxYz01234567');
    expect(redacted.stdout).not.toContain('QrStUvWxYz01234567');
    expect(redacted.stdout).toContain('as the token');
  });
});

describe('snapshot', () => {
  it.each([
    ['https://git.example.com/org/repo.git?token=s3cr3tQueryValue', 's3cr3tQueryValue'],
    ['https://files.example.com/pkg-1.0.whl?a=1&access_token=s3cr3tQueryValue', 's3cr3tQueryValue'],
    ['https://files.example.com/hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567/pkg-1.0.whl', 'AbCdEfGhIjKlMnOpQr'],
  ])('drops the secret from %s', async (url, secret) => {
    const site = join(await tempDir(), 'site-packages');
    const info = join(site, 'mypkg-1.0.dist-info');
    await mkdir(info, { recursive: true });
    await writeFile(join(info, 'METADATA'), 'Metadata-Version: 2.1\nName: mypkg\nVersion: 1.0\n');
    await writeFile(join(info, 'direct_url.json'), JSON.stringify({ url, archive_info: {} }));
    const snapshot = await runVigil(['snapshot', '--site-packages', site], { env: { PATH: '/nonexistent' } });
    expect(snapshot.code).toBe(0);
    expect(snapshot.stdout).toContain('example.com');
    expect(snapshot.stdout).not.toContain(secret);
  });
});
