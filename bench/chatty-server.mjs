#!/usr/bin/env node
// chatty-server.mjs — stands in for a busy vLLM server under `vigil run`: prints a short start-up sequence,
// then RATE realistic lines a second (uvicorn access lines, request logs, metrics, worker chatter) for SECONDS
// seconds, and exits 0.
//
//   node bench/chatty-server.mjs [--rate 5000] [--seconds 10] [--cpu-out FILE]
//
// --cpu-out writes this process's own CPU use ({"userUs":..,"systemUs":..,"lines":..,"wallMs":..}) at exit, so
// that the bench can subtract it from the CPU of the supervisor that reaped it.
import process from 'node:process';
import { performance } from 'node:perf_hooks';
import { setInterval, clearInterval } from 'node:timers';
import fs from 'node:fs';

const args = { rate: 5000, seconds: 10, cpuOut: null };
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  if (a === '--rate') args.rate = Number(process.argv[++i]);
  else if (a === '--seconds') args.seconds = Number(process.argv[++i]);
  else if (a === '--cpu-out') args.cpuOut = process.argv[++i];
}

const PID = process.pid;
const API = `(APIServer pid=${PID})`;
const ENGINE = `(EngineCore_DP0 pid=${PID + 1})`;
const worker = (r) => `(Worker_TP${r} pid=${PID + 2 + r})`;
let seed = 11;
const rnd = () => {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const ri = (a, b) => a + Math.floor(rnd() * (b - a + 1));
const p2 = (n) => String(n).padStart(2, '0');
const stamp = () => {
  const d = new Date();
  return `${p2(d.getMonth() + 1)}-${p2(d.getDate())} ${p2(d.getHours())}:${p2(d.getMinutes())}:${p2(d.getSeconds())}`;
};
const ip = () => `10.${ri(0, 3)}.${ri(0, 255)}.${ri(1, 254)}`;

function startup() {
  const s = stamp();
  const out = [
    `${API} INFO ${s} [__init__.py:241] Automatically detected platform cuda.`,
    `${API} INFO ${s} [api_server.py:1805] vLLM API server version 0.10.1.1`,
    `${API} INFO ${s} [config.py:1759] Using max model len 131072`,
    `${ENGINE} INFO ${s} [core.py:73] Initializing a V1 LLM engine (v0.10.1.1) with config: model='moonshotai/Kimi-K2-Instruct', tensor_parallel_size=8`,
  ];
  for (let r = 0; r < 8; r++)
    out.push(`${worker(r)} INFO ${s} [default_loader.py:262] Loading weights took 0.${ri(10, 99)} seconds`);
  out.push(`${ENGINE} INFO ${s} [kv_cache_utils.py:849] GPU KV cache size: 421,888 tokens`);
  out.push(
    `${ENGINE} INFO ${s} [core.py:214] init engine (profile, create kv cache, warmup model) took 1.02 seconds`,
  );
  out.push(`${API} INFO ${s} [api_server.py:1880] Starting vLLM API server 0 on http://0.0.0.0:8000`);
  out.push(`${API} INFO:     Started server process [${PID}]`);
  out.push(`${API} INFO:     Waiting for application startup.`);
  out.push(`${API} INFO:     Application startup complete.`);
  return out.join('\n') + '\n';
}

function line(s) {
  const r = rnd();
  if (r < 0.55)
    return `${API} INFO:     ${ip()}:${ri(30000, 65000)} - "POST /v1/chat/completions HTTP/1.1" 200 OK`;
  if (r < 0.75)
    return `${API} INFO ${s} [async_llm.py:${ri(270, 290)}] Added request chatcmpl-${ri(1e8, 9e8).toString(16)}${ri(1e8, 9e8).toString(16)}.`;
  if (r < 0.85)
    return `${ENGINE} INFO ${s} [scheduler.py:${ri(300, 900)}] Scheduled ${ri(1, 64)} reqs, ${ri(1, 8192)} tokens, ${ri(0, 20)} waiting`;
  if (r < 0.999)
    return `${worker(ri(0, 7))} INFO ${s} [gpu_model_runner.py:${ri(1000, 3500)}] Forward pass ${(3 + rnd() * 300).toFixed(1)} ms, batch ${ri(1, 256)}`;
  return `${API} INFO ${s} [loggers.py:123] Engine 000: Avg prompt throughput: ${(rnd() * 9000).toFixed(1)} tokens/s, Avg generation throughput: ${(rnd() * 900).toFixed(1)} tokens/s, Running: ${ri(0, 64)} reqs, Waiting: ${ri(0, 20)} reqs, GPU KV cache usage: ${(rnd() * 99).toFixed(1)}%, Prefix cache hit rate: ${(rnd() * 99).toFixed(1)}%`;
}

process.stdout.write(startup());
const t0 = performance.now();
let lines = 0;
const total = Math.round(args.rate * args.seconds);
// every 10 ms, print the lines that are due by now (one write per batch, as a logging handler flushes)
const timer = setInterval(() => {
  const elapsed = performance.now() - t0;
  const due = Math.min(total, Math.floor((elapsed * args.rate) / 1000));
  if (due > lines) {
    const s = stamp();
    let batch = '';
    for (; lines < due; lines++) batch += line(s) + '\n';
    process.stdout.write(batch);
  }
  if (lines >= total) {
    clearInterval(timer);
    process.stdout.write(
      `${API} INFO:     Shutting down\n${API} INFO:     Finished server process [${PID}]\n`,
      () => {
        if (args.cpuOut) {
          const u = process.cpuUsage();
          fs.writeFileSync(
            args.cpuOut,
            JSON.stringify({ userUs: u.user, systemUs: u.system, lines, wallMs: performance.now() - t0 }),
          );
        }
        process.exitCode = 0;
      },
    );
  }
}, 10);
