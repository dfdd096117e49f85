import { describe, expect, it } from 'vitest';
import { parseSystemdMessage } from '../../src/sources/journal/systemd-messages.js';
import { parseUnitState } from '../../src/sources/journal/unit-state.js';
import { parseSystemdExit } from '../../src/supervision/watch/watch-session.js';

describe('parseSystemdMessage', () => {
  it.each([
    [
      'vllm.service: Main process exited, code=exited, status=1/FAILURE',
      { kind: 'main-exited', success: false, status: 'exited 1/FAILURE' },
    ],
    [
      'vllm.service: Main process exited, code=killed, status=9/KILL',
      { kind: 'main-exited', success: false, status: 'killed 9/KILL' },
    ],
    [
      'vllm.service: Main process exited, code=exited, status=0/SUCCESS',
      { kind: 'main-exited', success: true, status: 'exited 0/SUCCESS' },
    ],
    [
      'ollama.service: main process exited, code=exited, status=127/n/a',
      { kind: 'main-exited', success: false, status: 'exited 127/n/a' },
    ],
    ["vllm.service: Failed with result 'exit-code'.", { kind: 'failed', result: 'exit-code' }],
    [
      'vllm.service: Scheduled restart job, restart counter is at 3.',
      { kind: 'restart-scheduled', counter: 3 },
    ],
    ['vllm.service: Start request repeated too quickly.', { kind: 'start-limit-hit' }],
    ['vllm.service: start operation timed out. Terminating.', { kind: 'start-timeout' }],
    ['vllm.service: A process of this unit has been killed by the OOM killer.', { kind: 'oom-killed' }],
    ['vllm.service: Deactivated successfully.', { kind: 'deactivated' }],
    ['Starting vllm.service - vLLM OpenAI server...', { kind: 'starting' }],
    ['Stopping vllm.service - vLLM OpenAI server...', { kind: 'stopping' }],
    ['Started vllm.service - vLLM OpenAI server.', null],
  ])('%s', (message, event) => {
    expect(parseSystemdMessage(message)).toEqual(event);
  });
});

describe('parseSystemdExit', () => {
  it.each([
    ['exited 1/FAILURE', { code: 1, signal: null }],
    ['killed 9/KILL', { code: null, signal: 'SIGKILL' }],
    ['dumped 11/SEGV', { code: null, signal: 'SIGSEGV' }],
    ["Failed with result 'timeout'", null],
  ])('%s', (text, exit) => {
    expect(parseSystemdExit(text)).toEqual(exit);
  });
});

describe('parseUnitState', () => {
  it('reads systemctl show --timestamp=unix', () => {
    const state = parseUnitState(
      'ActiveState=activating\nSubState=auto-restart\nResult=exit-code\nNRestarts=2\nExecMainStatus=1\nInvocationID=9f0c\nInactiveExitTimestamp=@1771630267\n',
    );
    expect(state).toEqual({
      activeState: 'activating',
      subState: 'auto-restart',
      result: 'exit-code',
      nRestarts: 2,
      execMainStatus: 1,
      invocationId: '9f0c',
      startedSince: '@1771630267',
    });
  });

  it('leaves out a start time systemd did not give', () => {
    expect(parseUnitState('ActiveState=inactive\nInactiveExitTimestamp=\n')).toMatchObject({
      startedSince: null,
      nRestarts: 0,
    });
  });
});
