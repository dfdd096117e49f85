/**
 * Words that say something failed, in a line no grammar reads as a failure: the message on the line next
 * to a runtime's `Exception caught at file:` (session.ts), the error before an assertion that names nothing
 * (first-of-burst.ts), a log's last words (build-diagnosis.ts). One list, so what counts as speaking of a
 * failure is the same wherever it is asked. A NaN check's report (`Oops(op, tensor): found nan for ...`) and
 * a loader's `tensor 'x' has wrong size` are failures in words no grammar knows.
 */
export const FAILURE_WORDS =
  /\b(?:error|failed|failure|fatal|abort(?:ed)?|exception|panic(?:ked)?|crash(?:ed)?|cannot|can't|unable|exceed(?:s|ed)?|invalid|not supported|out of|segmentation fault|core dumped|killed|found (?:nan|inf)|wrong (?:size|shape|number|type)|does not match|mismatch(?:ed)?)\b/i;

export const hasFailureWords = (text: string): boolean => FAILURE_WORDS.test(text);

/**
 * Words of an error or hint that say the process carries on past it (`retrying`, `falling back`, `deep_gemm
 * not found in site-packages, trying vendored ...`): what it lacked, it did without.
 */
const GOES_ON =
  /\b(?:retrying|will retry|falling back|fall back|trying (?!to\b)\w+|using \S+ (?:instead|by default)|skipping|ignor(?:ed|ing))\b/i;

export const saysItGoesOn = (text: string): boolean => GOES_ON.test(text);
