#!/usr/bin/env node
// elf.mjs — `npm run bench:elf`: how long the ELF reader takes to list the CUDA kernels and torch symbols of
// one big shared object, through the file reader `vigil check` uses (dist/environment/read-shared-objects.js).
//
//   npm run build && node bench/elf.mjs [--size 1.5g] [--containers 4000] [--runs 5]
//
// * Writes bench/out/libtorch-like-<size>.so once (gitignored, sparse: only headers hold bytes): an ELF64 with
//   .dynstr/.dynsym/.dynamic and a .nv_fatbin of N containers of 8 entries each (SASS sm_50..sm_90 and one PTX),
//   the payloads sized to fill the file, as libtorch_cuda.so's ~1.3 GB fatbin is laid out (one container per
//   translation unit, a cubin per architecture).
// * Also times the real CUDA libraries of test/.binaries/ when scripts/fetch-test-binaries.sh has fetched them.
// * Reports the median wall time of --runs rounds in this process, after one untimed round (page cache warm).
import process from 'node:process';
import console from 'node:console';
import { Buffer } from 'node:buffer';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = new Map();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i], process.argv[i + 1]);
const size = parseSize(args.get('--size') ?? '1.5g');
const containers = Number(args.get('--containers') ?? 4000);
const runs = Number(args.get('--runs') ?? 5);

const { withFile } = await import(path.join(ROOT, 'dist/environment/read-shared-objects.js'));
const { inspectSharedObject } = await import(path.join(ROOT, 'dist/elf/index.js'));

const synthetic = path.join(
  ROOT,
  'bench',
  'out',
  `libtorch-like-${args.get('--size') ?? '1.5g'}-${containers}.so`,
);
if (!fs.existsSync(synthetic)) writeSynthetic(synthetic, size, containers);
const files = [
  synthetic,
  ...['node-llama-cpp-3.6.0-libggml-cuda.so', 'fugood-node-llama-1.7.15-cuda.node']
    .map((name) => path.join(ROOT, 'test', '.binaries', name))
    .filter((file) => fs.existsSync(file)),
];

for (const file of files) {
  const inspect = () =>
    withFile(file, (reader) => inspectSharedObject(reader, (name) => name.startsWith('_ZN3c10')));
  const facts = inspect();
  const times = [];
  for (let round = 0; round < runs; round++) {
    const start = performance.now();
    inspect();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  console.log(
    `${path.basename(file)}: ${(fs.statSync(file).size / 1024 ** 3).toFixed(2)} GiB, ${facts.fatbin?.containers ?? 0} containers, ` +
      `SASS ${facts.fatbin?.sass.join(',')}, median ${median.toFixed(1)} ms of ${runs} (min ${times[0].toFixed(1)}, max ${times.at(-1).toFixed(1)})`,
  );
}

function writeSynthetic(file, total, count) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const archs = [50, 60, 70, 75, 80, 86, 90];
  const entriesPer = archs.length + 1;
  const payload = Math.floor((total - 1024 * 1024) / count / entriesPer / 8) * 8 - 64;
  const fd = fs.openSync(`${file}.part`, 'w');
  const strings = Buffer.from('\0libc10.so\0libcudart.so.12\0_ZN3c1010TensorImpl4sizeEv\0');
  const shstr = Buffer.from('\0.dynstr\0.dynsym\0.dynamic\0.nv_fatbin\0.shstrtab\0');
  const dynsym = Buffer.alloc(48);
  dynsym.writeUInt32LE(27, 24);
  dynsym.writeUInt8(0x12, 28);
  const dynamic = Buffer.alloc(48);
  dynamic.writeBigUInt64LE(1n, 0);
  dynamic.writeBigUInt64LE(1n, 8);
  dynamic.writeBigUInt64LE(1n, 16);
  dynamic.writeBigUInt64LE(11n, 24);
  let at = 4096;
  const place = (buffer) => {
    const offset = at;
    fs.writeSync(fd, buffer, 0, buffer.length, offset);
    at = Math.ceil((at + buffer.length) / 8) * 8;
    return offset;
  };
  const sections = [
    [1, 3, place(strings), strings.length, 0, 0],
    [9, 11, place(dynsym), dynsym.length, 1, 24],
    [17, 6, place(dynamic), dynamic.length, 1, 16],
  ];
  const fatbinStart = at;
  const header = Buffer.alloc(16);
  const entry = Buffer.alloc(64);
  for (let c = 0; c < count; c++) {
    const bodySize = entriesPer * (64 + payload);
    header.writeUInt32LE(0xba55ed50, 0);
    header.writeUInt16LE(1, 4);
    header.writeUInt16LE(16, 6);
    header.writeBigUInt64LE(BigInt(bodySize), 8);
    fs.writeSync(fd, header, 0, 16, at);
    let e = at + 16;
    for (const [index, arch] of [...archs, 90].entries()) {
      entry.fill(0);
      entry.writeUInt16LE(index === archs.length ? 1 : 2, 0);
      entry.writeUInt32LE(64, 4);
      entry.writeBigUInt64LE(BigInt(payload), 8);
      entry.writeUInt16LE(index === archs.length ? 4 : 7, 24);
      entry.writeUInt16LE(index === archs.length ? 8 : 1, 26);
      entry.writeUInt32LE(arch, 28);
      entry.writeBigUInt64LE(0x2011n, 40);
      fs.writeSync(fd, entry, 0, 64, e);
      e += 64 + payload;
    }
    at = Math.ceil(e / 8) * 8;
  }
  sections.push([26, 1, fatbinStart, at - fatbinStart, 0, 0]);
  sections.push([37, 3, place(shstr), shstr.length, 0, 0]);
  const table = Buffer.alloc(64 * (sections.length + 1));
  sections.forEach(([name, type, offset, length, link, entsize], index) => {
    const s = 64 * (index + 1);
    table.writeUInt32LE(name, s);
    table.writeUInt32LE(type, s + 4);
    table.writeBigUInt64LE(BigInt(offset), s + 24);
    table.writeBigUInt64LE(BigInt(length), s + 32);
    table.writeUInt32LE(link, s + 40);
    table.writeBigUInt64LE(BigInt(entsize), s + 56);
  });
  const tableAt = place(table);
  const elf = Buffer.alloc(64);
  Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]).copy(elf);
  elf.writeUInt16LE(3, 16);
  elf.writeUInt16LE(62, 18);
  elf.writeBigUInt64LE(BigInt(tableAt), 0x28);
  elf.writeUInt16LE(64, 0x3a);
  elf.writeUInt16LE(sections.length + 1, 0x3c);
  elf.writeUInt16LE(sections.length, 0x3e);
  fs.writeSync(fd, elf, 0, 64, 0);
  fs.closeSync(fd);
  fs.renameSync(`${file}.part`, file);
}

function parseSize(text) {
  const match = /^([\d.]+)([kmg]?)$/i.exec(text);
  if (match === null) throw new Error(`--size: ${text}?`);
  return Math.round(
    Number(match[1]) * { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[match[2].toLowerCase()],
  );
}
