/**
 * How a parent or supervisor words a child's exit status before the number (`exit code 137`, `exited with
 * code 1`, `Exit status: 2`, `exitcode=-9`): one phrase for the signals grammar and the signatures that
 * decode a status, so a new wording is added once.
 */
export const EXIT_STATUS_WORDS = String.raw`(?:[Ee]xit(?:ed)?(?: with)?(?: exit)? (?:code|status)|exitcode)\b[:=]? ?`;

/**
 * A status that is no signal's, as a parent or supervisor words it: not 0, nor 129-159 (128 + a signal);
 * or in hexadecimal as Windows prints one that is no NTSTATUS (`exit status 0xffffffff`, a process's -1;
 * `0xc0000005` and the other `0xc...` are the signals grammar's).
 */
export const ERROR_EXIT_STATUS = String.raw`(?<!non-zero )\b${EXIT_STATUS_WORDS}(?:(?!0\b|129\b|1[3-5]\d\b)\d{1,3}\b(?![./])|0x(?![cC])(?!0+\b)[0-9a-fA-F]{1,8}\b)|\bcode=exited, status=(?!0\/)\d+\/(?:[A-Z]+\b|n\/a)`;
