/**
 * The newest CUDA each driver runs, from NVIDIA's CUDA Toolkit release notes (Table 3, Linux x86_64):
 * the minimum driver of each toolkit's GA release. Newest first.
 */
const MIN_DRIVER: [cuda: string, driver: string][] = [
  ['13.2', '595.45.04'],
  ['13.1', '590.44.01'],
  ['13.0', '580.65.06'],
  ['12.9', '575.51.03'],
  ['12.8', '570.26'],
  ['12.6', '560.28.03'],
  ['12.5', '555.42.02'],
  ['12.4', '550.54.14'],
  ['12.3', '545.23.06'],
  ['12.2', '535.54.03'],
  ['12.1', '530.30.02'],
  ['12.0', '525.60.13'],
  ['11.0', '450.80.02'],
];

/**
 * The newest CUDA a driver supports. `orNewer` when the driver is at or past the table's newest row, so
 * its real ceiling may be higher than the table knows.
 */
export function findDriverCuda(driverVersion: string): { cuda: string; orNewer: boolean } {
  for (const [index, [cuda, minimum]] of MIN_DRIVER.entries()) {
    if (compareDotted(driverVersion, minimum) >= 0) return { cuda, orNewer: index === 0 };
  }
  return { cuda: '10.2', orNewer: false };
}

export function compareDotted(a: string, b: string): number {
  const left = a.split('.').map((part) => Number.parseInt(part, 10) || 0);
  const right = b.split('.').map((part) => Number.parseInt(part, 10) || 0);
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const difference = (left[i] ?? 0) - (right[i] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}
