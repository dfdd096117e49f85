/**
 * `Worker_TP0, Worker_TP1, ... Worker_TP7` → `Worker_TP0..7`, and `8/8 workers` when every process of that
 * family failed alike. Pure.
 */
export function describeProcesses(processes: readonly string[], seen: readonly string[]): string {
  if (processes.length === 0) return '';
  const families = new Map<string, number[]>();
  const plain: string[] = [];
  for (const process of processes) {
    const m = /^(.*?)(\d+)$/.exec(process);
    if (!m) {
      plain.push(process);
      continue;
    }
    const list = families.get(m[1] ?? '') ?? [];
    list.push(Number(m[2]));
    families.set(m[1] ?? '', list);
  }
  const parts: string[] = [...plain];
  for (const [family, numbers] of families) {
    numbers.sort((a, b) => a - b);
    const total = seen.filter((p) => p.startsWith(family) && /^\d+$/.test(p.slice(family.length))).length;
    const ranges = compressRanges(numbers);
    const label = `${family}${ranges}`;
    parts.push(
      numbers.length > 1 && total >= numbers.length
        ? `${numbers.length}/${total} ${kind(family)} (${label})`
        : label,
    );
  }
  return parts.join(', ');
}

function compressRanges(numbers: readonly number[]): string {
  const out: string[] = [];
  let start = numbers[0] ?? 0;
  let previous = start;
  for (const n of [...numbers.slice(1), Number.NaN]) {
    if (n === previous + 1) {
      previous = n;
      continue;
    }
    out.push(start === previous ? `${start}` : `${start}..${previous}`);
    start = n;
    previous = n;
  }
  return out.join(',');
}

function kind(family: string): string {
  if (/worker|TP|rank/i.test(family)) return 'workers';
  return 'processes';
}
