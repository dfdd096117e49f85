/** Types for the benchmark's journal generator, so tests can use it. */
export const GENERATOR_VERSION: number;
export const PLANTED: {
  process: string;
  exception: string;
  message: string;
  messageNeedle: string;
};
export const SHAPES: readonly string[];
export function parseSize(text: string): number;
export function generateJournal(options: {
  size: number | string;
  out: string;
  seed?: number;
  shape?: string;
  onProgress?: (bytes: number) => void;
}): Promise<unknown>;
