import { describe, expect, it } from 'vitest';
import { runCliCaptured } from '../helpers/run-cli-captured.js';

describe('--version and --help', () => {
  it.each([['--version'], ['-V'], ['-V', '--version']])(
    '%s prints the version with no command loaded',
    async (...argv) => {
      const result = await runCliCaptured(argv);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^vigil \d+\.\d+\.\d+/);
    },
  );

  it('--help still lists every command', async () => {
    const result = await runCliCaptured(['--help']);
    expect(result.code).toBe(0);
    for (const name of [
      'diagnose',
      'check',
      'snapshot',
      'diff',
      'run',
      'watch',
      'unit',
      'eval',
      'signatures',
    ])
      expect(result.stdout).toMatch(new RegExp(`^  ${name}\\b`, 'm'));
  });

  it("--help, from the commands' summaries alone, prints what their own registration prints", async () => {
    // `vigil help` registers every command (`vigil help NAME` prints that command's own help).
    const registered = await runCliCaptured(['help']);
    expect(registered.stdout).toMatch(/^Commands:$/m);
    for (const argv of [['--help'], ['-h'], ['bogus', '--help']]) {
      const summarized = await runCliCaptured(argv);
      expect(summarized).toEqual({ ...registered, code: 0 });
    }
    // A mistyped name is still told the one it may have meant.
    expect((await runCliCaptured(['diagnos'])).stderr).toMatch(/Did you mean diagnose\?/);
  });

  it('--version after a command still prints the version', async () => {
    const result = await runCliCaptured(['diagnose', '--version']);
    expect(result.stdout).toMatch(/^vigil \d+\.\d+\.\d+/);
  });
});
