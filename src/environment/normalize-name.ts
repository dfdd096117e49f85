const NORMAL = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** PEP 503 name normalization, also used for extras (PEP 685): `Flash_Infer.Python` → `flash-infer-python`. */
export function normalizeName(name: string): string {
  // Most names are already normal (`numpy`, `flashinfer-python`): one test instead of three passes.
  if (NORMAL.test(name)) return name;
  return name
    .trim()
    .replace(/[-_.]+/g, '-')
    .toLowerCase();
}
