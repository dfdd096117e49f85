import type { Candidate } from './candidate.js';

/** vLLM found no platform it knows (no GPU it could reach): every later step runs on a platform of none. */
const NO_PLATFORM = /\bNo platform detected, vLLM is running on UnspecifiedPlatform\b/;
/** Its platform checks' own words for why CUDA's was not it, most exact first (logged at DEBUG). */
const WHY_NOT_CUDA = [
  /\bCUDA platform is not available because: \S/,
  /\bException happens when checking CUDA platform: \S/,
];
/** Code of vLLM's that met the missing platform. */
const VLLM_FRAME = /[/\\]vllm[/\\]/;

/**
 * The cause of an exception vLLM raised after it found no platform (`NotImplementedError` of the
 * platform's interface, `not enough values to unpack` of a worker class it never named): why no platform
 * was found, where its checks said so, else that none was. Null where the log shows no such start.
 */
export function findUndetectedPlatform(
  failure: Candidate,
  candidates: readonly Candidate[],
): Candidate | null {
  if (failure.kind !== 'exception' || !failure.frames.some((f) => VLLM_FRAME.test(f.file))) return null;
  const before = candidates.filter((c) => c.line.n < failure.line.n);
  const none = before.findLast((c) => NO_PLATFORM.test(c.message));
  if (none === undefined) return null;
  for (const why of WHY_NOT_CUDA) {
    const said = before.findLast((c) => c.line.n < none.line.n && why.test(c.message));
    if (said !== undefined) return said;
  }
  return none;
}
