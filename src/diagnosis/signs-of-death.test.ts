import { describe, expect, it } from 'vitest';
import { loadBlock, nextSignOfDeath } from './signs-of-death.js';

/** The index (0-based) of the line a hit is on, or null for no hit; `text` is read as Latin-1 bytes. */
function hitLine(text: string, from: number): number | null {
  const hit = nextSignOfDeath(Buffer.from(text, 'latin1'), from);
  if (hit === -1) return null;
  return text.slice(0, hit).split('\n').length - 1;
}

/** Every line `nextSignOfDeath` stops at, walking the text as the block scanner does (a line at a time). */
function allHitLines(text: string): number[] {
  const lines: number[] = [];
  let pos = 0;
  const block = Buffer.from(text, 'latin1');
  for (;;) {
    const hit = nextSignOfDeath(block, pos);
    if (hit === -1) return lines;
    lines.push(text.slice(0, hit).split('\n').length - 1);
    const lf = text.indexOf('\n', hit);
    if (lf === -1) return lines;
    pos = lf + 1;
  }
}

const TS = '02-18 06:10:27';
const J = 'Feb 18 06:10:27 gpu-node-07 vllm[3190412]:';
const CHATTER = `${J} (APIServer pid=3190412) INFO ${TS} [loggers.py:123] Engine 000: Avg prompt throughput: 512.3 tokens/s`;
const REQUEST_QUOTING = `${J} (APIServer pid=3190412) INFO ${TS} [logger.py:41] Received request chatcmpl-9f2: prompt: 'Why does import fail with ModuleNotFoundError: No module named foo?', params: SamplingParams(n=1)`;

/**
 * Lines (joined with LF and read as Latin-1, as the scanner searches a block), where to search from (the start
 * of line `fromLine`, or offset `fromChar`), and the line hit (0-based) or null.
 */
const cases: { name: string; lines: string[]; fromLine?: number; fromChar?: number; hit: number | null }[] = [
  {
    name: 'an ERROR-level vLLM line',
    lines: [
      CHATTER,
      `${J} (EngineCore_DP0 pid=3190500) ERROR ${TS} [core.py:708] EngineCore encountered a fatal error.`,
    ],
    hit: 1,
  },
  {
    name: 'an INFO request log quoting ModuleNotFoundError: passed over',
    lines: [CHATTER, REQUEST_QUOTING, CHATTER],
    hit: null,
  },
  {
    name: 'a quoting INFO line, then a real ERROR line',
    lines: [
      REQUEST_QUOTING,
      CHATTER,
      `ERROR ${TS} [engine.py:96] EngineDeadError: EngineCore encountered an issue.`,
    ],
    hit: 2,
  },
  {
    name: 'an INFO line saying "Shutting down"',
    lines: [CHATTER, `INFO:     Shutting down`, CHATTER],
    hit: 1,
  },
  {
    name: 'a vLLM INFO line saying "Shutting down"',
    lines: [`${J} (APIServer pid=3190412) INFO ${TS} [launcher.py:80] Shutting down FastAPI HTTP server.`],
    hit: 0,
  },
  {
    name: 'an INFO line quoting Error, then on the same line "Segmentation fault"',
    lines: [
      CHATTER,
      `INFO ${TS} [logger.py:41] Received request: prompt: 'what is a TypeError' Fatal Python error: Segmentation fault`,
    ],
    hit: 1,
  },
  {
    name: 'an INFO line quoting Exception, then on the same line a Traceback',
    lines: [`INFO ${TS} [logger.py:41] prompt: 'Exception handling' Traceback (most recent call last):`],
    hit: 0,
  },
  {
    name: 'uvicorn INFO: lines quoting Exception: passed over',
    lines: [
      `INFO:     10.0.0.7:51234 - "GET /v1/models/Exception HTTP/1.1" 404 Not Found`,
      `INFO:     10.0.0.7:51236 - "POST /v1/chat/completions?q=UnhandledException HTTP/1.1" 200 OK`,
      `INFO:     10.0.0.7:51238 - "POST /v1/completions HTTP/1.1" 500 Internal Server Error`,
    ],
    hit: null,
  },
  {
    name: 'a bare Traceback line',
    lines: [CHATTER, 'Traceback (most recent call last):', '  File "/usr/lib/python3.12/runpy.py", line 198'],
    hit: 1,
  },
  {
    name: 'a Traceback line inside an INFO line is still a hit (not a quotable word)',
    lines: [`INFO ${TS} [logger.py:41] prompt: 'explain Traceback (most recent call last): to me'`],
    hit: 0,
  },
  {
    name: 'systemd saying the main process exited',
    lines: [
      CHATTER,
      'Feb 18 06:10:31 gpu-node-07 systemd[1]: vllm.service: Main process exited, code=exited, status=1/FAILURE',
    ],
    hit: 1,
  },
  {
    name: 'systemd after a quoting INFO line',
    lines: [REQUEST_QUOTING, 'systemd[1]: vllm.service: Main process exited, code=killed, status=9/KILL'],
    hit: 1,
  },
  {
    name: 'JSON "level":"info" quoting Error: passed over',
    lines: [
      '{"ts":"2026-02-18T06:10:27Z","level":"info","msg":"request","prompt":"fix this ValueError please"}',
      '{"ts":"2026-02-18T06:10:27Z", "level": "debug", "msg":"retrying after ConnectionError"}',
    ],
    hit: null,
  },
  {
    name: 'JSON "level":"error" is a hit',
    lines: [
      '{"ts":"2026-02-18T06:10:27Z","level":"info","msg":"ok"}',
      '{"ts":"2026-02-18T06:10:28Z","level":"error","msg":"RuntimeError: CUDA error: an illegal memory access"}',
    ],
    hit: 1,
  },
  {
    name: 'logfmt level=info quoting an Exception: passed over',
    lines: ['time=2026-02-18T06:10:27Z level=info msg="prompt mentions KeyError and Exception"'],
    hit: null,
  },
  {
    name: 'a WARNING line with an Error is a hit',
    lines: [CHATTER, `WARNING ${TS} [utils.py:12] CUDA Error 700 seen, retrying`],
    hit: 1,
  },
  {
    name: 'CRITICAL with no level before it is a hit',
    lines: [CHATTER, `CRITICAL ${TS} [server.py:1] worker died`],
    hit: 1,
  },
  {
    name: 'a level past the line’s first 200 chars does not excuse an Error',
    lines: [`${'x'.repeat(210)} INFO RuntimeError: boom`],
    hit: 0,
  },
  {
    name: 'INFO well before the Error, within 200 chars of the line start, excuses it',
    lines: [`INFO ${'y'.repeat(150)} RuntimeError: quoted`],
    hit: null,
  },
  {
    name: 'an INFO on the line above does not excuse an Error on this one',
    lines: [`INFO ${TS} [logger.py:41] request`, 'RuntimeError: CUDA error: device-side assert triggered'],
    hit: 1,
  },
  {
    name: 'a level word inside another word does not count (INFORMATION)',
    lines: [`INFORMATION ${TS} RuntimeError: boom`],
    hit: 0,
  },
  {
    name: 'a raw CUDA error (ggml, lowercase "error") after serving is a hit',
    lines: [
      'time=2025-04-14T20:20:32.049+08:00 level=INFO source=server.go:619 msg="llama runner started in 4.01 seconds"',
      '[GIN] 2025/04/14 - 20:20:32 | 200 |    4.2413769s |       127.0.0.1 | POST     "/api/generate"',
      'CUDA error: an illegal memory access was encountered',
    ],
    hit: 2,
  },
  {
    name: 'a C++ terminate naming std::runtime_error is a hit',
    lines: [CHATTER, "terminate called after throwing an instance of 'std::runtime_error'"],
    hit: 1,
  },
  {
    name: 'an INFO request log quoting a lowercase error: passed over',
    lines: [
      `INFO ${TS} [logger.py:41] Received request: prompt: 'Why does my build fail with error: cannot find -lcuda?'`,
      'time=2025-04-14T20:20:32.049+08:00 level=INFO source=routes.go:1 msg="retry" error="context canceled"',
    ],
    hit: null,
  },
  {
    name: 'chatter only',
    lines: [
      CHATTER,
      CHATTER,
      `${J} (Worker_TP3 pid=3190724) INFO ${TS} [gpu_model_runner.py:2042] step done`,
    ],
    hit: null,
  },
  {
    name: 'search from the second line skips a hit on the first',
    lines: ['Traceback (most recent call last):', CHATTER, `ERROR ${TS} [core.py:1] died`],
    fromLine: 1,
    hit: 2,
  },
  {
    name: 'search from mid-line, after a quoting INFO head: the level is looked for from the line start',
    lines: [`INFO ${TS} [logger.py:41] prompt: 'Error one' and 'Error two'`],
    fromChar: 40,
    hit: null,
  },
];

describe('nextSignOfDeath', () => {
  it.each(cases)('$name', ({ lines, fromLine, fromChar, hit }) => {
    const text = Buffer.from(lines.join('\n') + '\n', 'utf8').toString('latin1');
    const start = fromChar ?? lines.slice(0, fromLine ?? 0).reduce((at, line) => at + line.length + 1, 0);
    expect(hitLine(text, start)).toBe(hit);
  });

  it('finds every sign in a mixed block, line by line, in order', () => {
    const lines = [
      CHATTER, // 0
      REQUEST_QUOTING, // 1 passed over
      `ERROR ${TS} [core.py:708] EngineCore encountered a fatal error.`, // 2
      CHATTER, // 3
      'Traceback (most recent call last):', // 4
      `INFO:     10.0.0.7:51238 - "POST /v1/completions HTTP/1.1" 500 Internal Server Error`, // 5 passed over
      "systemd[1]: vllm.service: Failed with result 'exit-code'.", // 6
      '{"level":"info","msg":"prompt about OSError"}', // 7 passed over
      `INFO ${TS} [launcher.py:80] Shutting down FastAPI HTTP server.`, // 8
    ];
    const text = lines.join('\n') + '\n';
    expect(allHitLines(text)).toEqual([2, 4, 6, 8]);
  });

  it('searching again from an earlier offset starts over', () => {
    const text = `ERROR a\n${CHATTER}\nERROR b\n`;
    expect(hitLine(text, text.lastIndexOf('ERROR'))).toBe(2);
    expect(hitLine(text, 0)).toBe(0);
  });

  it('a block written again is searched as it is now once loaded again', () => {
    const block = Buffer.from(`${CHATTER}\nERROR b\n`, 'latin1');
    loadBlock(block);
    expect(nextSignOfDeath(block, 0)).toBe(CHATTER.length + 1);
    block.write('INFO ', CHATTER.length + 1, 'latin1');
    loadBlock(block);
    expect(nextSignOfDeath(block, 0)).toBe(-1);
  });

  it('stops before `to`', () => {
    const block = Buffer.from(`${CHATTER}\nERROR b\n`, 'latin1');
    expect(nextSignOfDeath(block, 0, CHATTER.length + 1)).toBe(-1);
  });

  it('searches Latin-1 text from UTF-8 bytes: a multi-byte prompt before the level does not hide it', () => {
    const line = `INFO ${TS} [logger.py:41] prompt: '${'日本語'.repeat(20)} ValueError?'`;
    const text = Buffer.from(`${line}\nERROR ${TS} boom\n`, 'utf8').toString('latin1');
    expect(hitLine(text, 0)).toBe(1);
  });
});
