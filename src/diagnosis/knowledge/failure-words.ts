/**
 * Words that say something failed, in a line no grammar reads as a failure: the message on the line next
 * to a runtime's `Exception caught at file:` (session.ts), the error before an assertion that names nothing
 * (first-of-burst.ts), a log's last words (build-diagnosis.ts). One list, so what counts as speaking of a
 * failure is the same wherever it is asked. A NaN check's report (`Oops(op, tensor): found nan for ...`) and
 * a loader's `tensor 'x' has wrong size` are failures in words no grammar knows.
 */
export const FAILURE_WORDS =
  /\b(?:error|failed|failure|fatal|abort(?:ed)?|exception|panic(?:ked)?|crash(?:ed)?|cannot|can't|unable|exceed(?:s|ed)?|invalid|not supported|out of|segmentation fault|core dumped|killed|found (?:nan|inf)|wrong (?:size|shape|number|type))\b/i;

export const hasFailureWords = (text: string): boolean => FAILURE_WORDS.test(text);
