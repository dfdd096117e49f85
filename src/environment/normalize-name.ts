/** PEP 503 name normalization, also used for extras (PEP 685): `Flash_Infer.Python` → `flash-infer-python`. */
export function normalizeName(name: string): string {
  return name
    .trim()
    .replace(/[-_.]+/g, '-')
    .toLowerCase();
}
