import { describe, expect, it } from 'vitest';
import type { Incident, IncidentNotice } from '../incidents/index.js';
import { hookReceiver, splitCommand } from './receivers.js';

const incident: Incident = {
  id: '20260303T100000Z-vllm-service-00000000',
  target: 'vllm.service',
  host: 'gpu-1',
  engine: 'vllm',
  category: 'oom-gpu',
  signature: 'cuda-oom',
  cause: 'GPU out of memory',
  fix: null,
  phase: 'serving',
  status: 'open',
  count: 1,
  firstSeen: '2026-03-03T10:00:00.000Z',
  lastSeen: '2026-03-03T10:00:00.000Z',
  resolvedAt: null,
  delivered: {},
};
const notice: IncidentNotice = {
  kind: 'firing',
  incident,
  diagnosis: null,
  pagePath: '/p.html',
  redact: true,
};
const env = { PATH: process.env.PATH };

describe('--on-failure', () => {
  it.each([
    ['notify-send "server down" --urgency=critical', ['notify-send', 'server down', '--urgency=critical']],
    ["logger -t vigil 'a $HOME; rm -rf /'", ['logger', '-t', 'vigil', 'a $HOME; rm -rf /']],
    ['  spaced   out  ', ['spaced', 'out']],
    ['empty "" arg', ['empty', '', 'arg']],
  ])('splits %j without a shell', (command, argv) => {
    expect(splitCommand(command)).toEqual(argv);
  });

  it('gives the program the incident on stdin and in its environment', async () => {
    const script =
      'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const b=JSON.parse(s);process.exit(b.incident.id===process.env.VIGIL_INCIDENT_ID&&process.env.VIGIL_CATEGORY==="oom-gpu"?0:5)})';
    await expect(
      hookReceiver(`${process.execPath} -e '${script}'`, env).send(notice),
    ).resolves.toBeUndefined();
  });

  it('counts a non-zero exit as a failed delivery, with its last stderr line', async () => {
    const receiver = hookReceiver(
      `${process.execPath} -e 'console.error("no route to pager");process.exit(3)'`,
      env,
    );
    await expect(receiver.send(notice)).rejects.toThrow('exited 3: no route to pager');
  });

  it('stops a program that runs past its timeout', async () => {
    const started = Date.now();
    const receiver = hookReceiver(`${process.execPath} -e 'setTimeout(()=>{},60000)'`, env, 300);
    await expect(receiver.send(notice)).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
