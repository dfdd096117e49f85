import { publicVersion, releaseOf, samePublicVersion } from '../environment/pep440.js';

/** Distributions that must move together although no metadata ties them (python-env-facts §3). */
export const FAMILIES = {
  flashinfer: ['flashinfer-python', 'flashinfer-cubin', 'flashinfer-jit-cache'],
  torch: ['torch', 'torchvision', 'torchaudio', 'triton'],
} as const;

export type FamilyName = keyof typeof FAMILIES;

// torch 2.x → triton, from torch's own Requires-Dist of each release (torch 2.11/2.12 not verified: left out).
const TRITON_FOR_TORCH: Record<string, string> = {
  '2.1': '2.1',
  '2.2': '2.2',
  '2.3': '2.3',
  '2.4': '3.0',
  '2.5': '3.1',
  '2.6': '3.2',
  '2.7': '3.3',
  '2.8': '3.4',
  '2.9': '3.5',
  '2.10': '3.6',
  '2.13': '3.7',
  '2.14': '3.8',
};

/** What a member should be (`0.25` = any 0.25.x) given torch's version, or null when nothing is published. */
export function expectedWithTorch(member: string, torchVersion: string): string | null {
  const [major, minor] = releaseOf(torchVersion) ?? [];
  if (major !== 2 || minor === undefined) return null;
  // pytorch/vision README: torchvision 0.(minor+15) for torch 2.minor.
  if (member === 'torchvision') return `0.${minor + 15}`;
  // torchaudio shared torch's version until its releases stopped at 2.11 (vLLM pins torch 2.13 + torchaudio 2.11).
  if (member === 'torchaudio') return minor <= 11 ? `2.${minor}` : null;
  if (member === 'triton') return TRITON_FOR_TORCH[`2.${minor}`] ?? null;
  return null;
}

/** True when `version` is in the `major.minor` series `series`. */
export function inSeries(version: string, series: string): boolean {
  const release = releaseOf(version);
  return release !== null && `${release[0] ?? 0}.${release[1] ?? 0}` === series;
}

export interface FamilyMismatch {
  family: FamilyName;
  member: string;
  /** The version the member should have: an exact version, or a `major.minor` series. */
  expected: string;
  actual: string;
}

/** Members that disagree with the family's leader (flashinfer-python, torch) in a name → version map. */
export function findFamilyMismatches(
  family: FamilyName,
  versions: ReadonlyMap<string, string>,
): FamilyMismatch[] {
  const [leader, ...members] = FAMILIES[family];
  const leaderVersion = versions.get(leader);
  if (leaderVersion === undefined) return [];
  const mismatches: FamilyMismatch[] = [];
  for (const member of members) {
    const actual = versions.get(member);
    if (actual === undefined) continue;
    if (family === 'flashinfer') {
      if (!samePublicVersion(actual, leaderVersion)) {
        mismatches.push({ family, member, expected: publicVersion(leaderVersion), actual });
      }
      continue;
    }
    const expected = expectedWithTorch(member, leaderVersion);
    if (expected !== null && !inSeries(actual, expected))
      mismatches.push({ family, member, expected, actual });
  }
  return mismatches;
}
