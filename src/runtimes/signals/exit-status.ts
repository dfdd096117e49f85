/**
 * How a parent or supervisor words a child's exit status before the number (`exit code 137`, `exited with
 * code 1`, `Exit status: 2`, `exitcode=-9`): one phrase for the signals grammar and the signatures that
 * decode a status, so a new wording is added once.
 */
export const EXIT_STATUS_WORDS = String.raw`(?:[Ee]xit(?:ed)?(?: with)?(?: exit)? (?:code|status)|exitcode)\b[:=]? ?`;
