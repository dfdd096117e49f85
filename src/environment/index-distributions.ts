import type { Distribution } from './types.js';

/** The distribution Python would import for each name: the first one on the search path wins. */
export function indexDistributions(distributions: readonly Distribution[]): Map<string, Distribution> {
  const installed = new Map<string, Distribution>();
  for (const distribution of distributions) {
    if (!installed.has(distribution.key)) installed.set(distribution.key, distribution);
  }
  return installed;
}
