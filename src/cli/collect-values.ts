/** Commander's accumulator for an option given more than once (`--rules a --rules b`): every value, in order. */
export function collectValues(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
