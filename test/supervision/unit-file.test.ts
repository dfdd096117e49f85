import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { quoteExecArgument, renderUnitFile, validateServiceName } from '../../src/supervision/unit-file.js';

describe('quoteExecArgument (systemd.service "Command lines")', () => {
  it.each([
    ['serve', 'serve'],
    ['/opt/venv/bin/vllm', '/opt/venv/bin/vllm'],
    ['--gpu-memory-utilization=0.9', '--gpu-memory-utilization=0.9'],
    ['moonshotai/Kimi-K2.5', 'moonshotai/Kimi-K2.5'],
    ['a b', '"a b"'],
    ['', '""'],
    ['say "hi"', '"say \\"hi\\""'],
    ['back\\slash', '"back\\\\slash"'],
    ['50%', '50%%'],
    ['$HOME', '$$HOME'],
    ['{"max_tokens": 8}', '"{\\"max_tokens\\": 8}"'],
    ['tab\there', '"tab\\there"'],
    [';', '";"'],
  ])('%j → %s', (word, quoted) => {
    expect(quoteExecArgument(word)).toBe(quoted);
  });
});

describe('validateServiceName', () => {
  it.each([
    ['vllm-qwen', 'vllm-qwen'],
    ['vllm-qwen.service', 'vllm-qwen'],
    ['llm@8000', 'llm@8000'],
  ])('accepts %s', (name, bare) => {
    expect(validateServiceName(name)).toBe(bare);
  });

  it.each(['', 'has space', 'a/b', '-opt', '.hidden', 'x'.repeat(300), 'semi;colon'])(
    'refuses %j',
    (name) => {
      expect(() => validateServiceName(name)).toThrow(UsageError);
    },
  );
});

describe('renderUnitFile', () => {
  const base = {
    name: 'vllm-kimi',
    command: '/opt/vllm/bin/vllm',
    args: [
      'serve',
      'moonshotai/Kimi-K2.5',
      '--tensor-parallel-size',
      '8',
      '--served-model-name',
      'kimi k2.5',
    ],
    vigil: ['/usr/local/bin/vigil'],
    environmentFile: '/etc/vigil/vllm-kimi.env',
    loadMs: 10 * 60_000,
    gpuWaitSeconds: 300,
    restartSec: 30,
    startLimitBurst: 3,
    supervise: false,
  };

  it.each([
    ['/opt/vllm/bin/python', '--python /opt/vllm/bin/python'],
    ['/srv/my env/bin/python3', '--python "/srv/my env/bin/python3"'],
  ])('checks the server’s own interpreter %s before it starts', (python, flag) => {
    const unit = renderUnitFile({ ...base, python });
    expect(unit).toContain(
      `ExecStartPre=/usr/local/bin/vigil check --gpu --wait-gpu-free 300 ${flag} -- /opt/vllm/bin/vllm serve`,
    );
  });

  it('writes the incident’s good practice', () => {
    const unit = renderUnitFile(base);
    // No interpreter known: the OS python is not the server's, so no Python is checked.
    expect(unit).toContain(
      'ExecStartPre=/usr/local/bin/vigil check --gpu --wait-gpu-free 300 --skip-python -- /opt/vllm/bin/vllm serve moonshotai/Kimi-K2.5 --tensor-parallel-size 8 --served-model-name "kimi k2.5"\n',
    );
    expect(unit).toContain(
      'ExecStart=/opt/vllm/bin/vllm serve moonshotai/Kimi-K2.5 --tensor-parallel-size 8 --served-model-name "kimi k2.5"\n',
    );
    expect(unit).toContain('Restart=on-failure\nRestartSec=30s\n');
    expect(unit).toContain('EnvironmentFile=-/etc/vigil/vllm-kimi.env\n');
    // 300 s of GPU wait plus 1.5 × 10 min of load.
    expect(unit).toContain('TimeoutStartSec=1200s\n');
    // Three attempts of (1200 s + 30 s), plus a minute: the limit trips within a crash loop.
    expect(unit).toContain('StartLimitIntervalSec=3750s\nStartLimitBurst=3\n');
    expect(unit).toMatch(/^\[Unit\]$/m);
    expect(unit).toMatch(/^\[Service\]$/m);
    expect(unit).toMatch(/^\[Install\]\nWantedBy=multi-user.target$/m);
  });

  it('runs the server under vigil run when supervised', () => {
    const unit = renderUnitFile({ ...base, supervise: true, healthUrl: 'http://127.0.0.1:8000/health' });
    expect(unit).toContain(
      'ExecStart=/usr/local/bin/vigil run --no-preflight --health http://127.0.0.1:8000/health --timeout 900s -- /opt/vllm/bin/vllm serve',
    );
  });

  it('runs vigil through node and its script, with -- before the script', () => {
    const unit = renderUnitFile({ ...base, vigil: ['/usr/bin/node', '--', '/opt/vigil/dist/cli/bin.js'] });
    expect(unit).toContain(
      'ExecStartPre=/usr/bin/node -- /opt/vigil/dist/cli/bin.js check --gpu --wait-gpu-free 300 --skip-python -- /opt/vllm/bin/vllm serve',
    );
  });

  it('refuses a program that is not an absolute path', () => {
    expect(() => renderUnitFile({ ...base, command: 'vllm' })).toThrow(/absolute path/);
  });
});
