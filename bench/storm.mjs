#!/usr/bin/env node
// storm.mjs — the work per line when many processes print tracebacks at once, interleaved line by line
// (issue 13: no quadratic path for many open tracebacks or many processes). For 8, 64 and 390 processes
// (the assembler gives up a traceback unseen for 400 lines), each storm repeated to about 100,000 lines:
// µs per line of `diagnose()` in this process, the median of 5 runs after one untimed run. Linear means
// about the same figure on every row.
//
//   npm run build && node bench/storm.mjs
import console from 'node:console';
import { Buffer } from 'node:buffer';
import { performance } from 'node:perf_hooks';

const { diagnose } = await import('../dist/index.js');
const FRAMES = 38;
const TARGET_LINES = 100_000;

/** One storm: each process prints a traceback of FRAMES frames, all of them one line at a time in turn. */
function storm(processes) {
  const lines = [];
  const storms = Math.max(1, Math.round(TARGET_LINES / (processes * (FRAMES + 2))));
  for (let s = 0; s < storms; s++) {
    for (let step = 0; step < FRAMES + 2; step++) {
      for (let p = 0; p < processes; p++) {
        const head = `Feb 17 09:${String(12 + s).padStart(2, '0')}:17 host vllm[100]: (Worker_TP${p} pid=${1000 + p}) ERROR 02-17 09:12:17 [multiproc_executor.py:${500 + step}] `;
        if (step === 0) lines.push(`${head}Traceback (most recent call last):`);
        else if (step <= FRAMES)
          lines.push(`${head}  File "/opt/vllm/worker_${step}.py", line ${step * 10}, in run_${step}`);
        else
          lines.push(`${head}RuntimeError: NCCL error: remote process exited or there was a network error`);
      }
    }
  }
  return { bytes: Buffer.from(lines.join('\n') + '\n'), lines: lines.length };
}

const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
console.log('processes | lines | µs per line (median of 5) | groups');
for (const processes of [8, 64, 390]) {
  const { bytes, lines } = storm(processes);
  const first = diagnose(bytes);
  const times = [];
  for (let run = 0; run < 5; run++) {
    const started = performance.now();
    diagnose(bytes);
    times.push(((performance.now() - started) * 1000) / lines);
  }
  console.log(`${processes} | ${lines} | ${median(times).toFixed(2)} | ${first.groups.length}`);
}
