import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface FakeSmi {
  /** CSV rows for --query-gpu (name, compute_cap, driver_version, memory.used, memory.total). */
  gpus?: string[];
  /** CSV rows for --query-compute-apps (pid, process_name, used_memory). */
  apps?: string[];
  /** Answer like a 470-series driver: compute_cap is not a valid field. */
  noComputeCap?: boolean;
  /** Fail like a host whose driver is not loaded. */
  broken?: boolean;
}

/**
 * Writes an executable `nvidia-smi` shell script into `<dir>/bin` and returns a PATH with it first, so
 * the checker runs it as a real subprocess and parses its CSV.
 */
export function writeFakeNvidiaSmi(dir: string, fake: FakeSmi): string {
  const bin = join(dir, 'bin');
  mkdirSync(bin, { recursive: true });
  const gpus = (fake.gpus ?? []).map((row) =>
    fake.noComputeCap ? row.replace(/^([^,]*), [^,]*,/, '$1,') : row,
  );
  const script = [
    '#!/bin/sh',
    fake.broken
      ? 'echo "NVIDIA-SMI has failed because it couldn\'t communicate with the NVIDIA driver."; exit 9'
      : '',
    'case "$1" in',
    '  --query-gpu=*)',
    fake.noComputeCap
      ? '    case "$1" in *compute_cap*) echo \'Field "compute_cap" is not a valid field to query.\'; exit 2;; esac'
      : '',
    `    printf '%s' '${gpus.map((row) => `${row}\n`).join('')}';;`,
    '  --query-compute-apps=*)',
    `    printf '%s' '${(fake.apps ?? []).map((row) => `${row}\n`).join('')}';;`,
    '  *) echo "unexpected arguments: $*" >&2; exit 3;;',
    'esac',
  ];
  const path = join(bin, 'nvidia-smi');
  writeFileSync(path, `${script.filter((line) => line !== '').join('\n')}\n`);
  chmodSync(path, 0o755);
  return `${bin}:${process.env.PATH ?? ''}`;
}
