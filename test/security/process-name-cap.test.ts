import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/limits.js';
import { runVigil, writeFiles } from '../hostile/cli-harness.js';

// Issue 31, item 4: one million distinct process prefixes took 1.7 GB in `diagnose` and `vigil run`. Every
// table kept per process name is capped and counts what it dropped (the memory figure is in
// bench/memory.mjs); the diagnosis of real logs, 8 workers or a few hundred pods, is unchanged.

interface Report {
  rootCause: { processes: string[]; message: string };
  processes: string[];
  warnings: string[];
}

const failureLine = (process: string) =>
  `(${process} pid=1) ERROR 01-01 00:00:00 [engine.py:1] RuntimeError: NCCL error: unhandled system error`;

function manyProcesses(count: number): string {
  const lines = ['INFO 01-01 00:00:00 [api_server.py:1] vLLM API server version 0.11.0'];
  for (let i = 0; i < count; i++) lines.push(failureLine(`Worker_TP${i}`));
  return `${lines.join('\n')}\n`;
}

const OVER = LIMITS.processNames + 5_000;

describe('diagnose', () => {
  it(`names at most ${LIMITS.processNames} processes of one failure and counts the rest`, async () => {
    const dir = await writeFiles({ 'server.log': manyProcesses(OVER) });
    const result = await runVigil(['diagnose', join(dir, 'server.log'), '--format', 'json']);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.rootCause.message).toContain('NCCL error');
    expect(report.rootCause.processes.length).toBe(LIMITS.processNames);
    expect(report.rootCause.processes).toContain('Worker_TP0');
    expect(report.warnings.join('\n')).toContain(`${OVER - LIMITS.processNames} failure lines of processes`);
  });

  it('still says 8/8 workers for eight tensor-parallel workers', async () => {
    const dir = await writeFiles({ 'server.log': manyProcesses(8) });
    const result = await runVigil(['diagnose', join(dir, 'server.log')]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('8/8 workers (Worker_TP0..7)');
    expect(result.stdout).not.toContain('counted, not named');
  });

  it('names every pod of a fleet of three hundred', async () => {
    const lines = ['INFO 01-01 00:00:00 [api_server.py:1] vLLM API server version 0.11.0'];
    for (let i = 0; i < 300; i++)
      lines.push(
        `[pod/vllm-${i}/server] ERROR 01-01 00:00:00 [engine.py:1] RuntimeError: NCCL error: unhandled`,
      );
    const dir = await writeFiles({ 'server.log': `${lines.join('\n')}\n` });
    const result = await runVigil(['diagnose', join(dir, 'server.log'), '--format', 'json']);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.rootCause.processes).toHaveLength(300);
    expect(report.warnings.join('\n')).not.toContain('counted, not named');
  });
});

describe('run', () => {
  it(`a server printing ${OVER} process names gets a report naming at most ${LIMITS.processNames}`, async () => {
    const script = `const lines = []; for (let i = 0; i < ${OVER}; i++) lines.push(${JSON.stringify(failureLine('Worker_TP'))}.replace('TP', 'TP' + i)); process.stdout.write(lines.join('\\n') + '\\n'); process.exitCode = 1;`;
    const result = await runVigil([
      'run',
      '--no-preflight',
      '--no-history',
      '--quiet',
      '--format',
      'json',
      '--',
      process.execPath,
      '-e',
      script,
    ]);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.rootCause.processes.length).toBe(LIMITS.processNames);
    expect(report.warnings.join('\n')).toContain('counted, not named');
  });
});
