import { redactText } from './redact-text.js';
import { REDACTED } from './token-rules.js';

/**
 * A command line with its secrets redacted, argument by argument: `--api-key X` as two arguments,
 * `--hf-token=X`, `HF_TOKEN=X` and bare tokens. For what Vigil stores (the start history's key), which must
 * not keep a credential in a file under the user's home.
 */
export function redactArgv(args: readonly string[]): string[] {
  return args.map((arg, index) => {
    const previous = index === 0 ? undefined : args[index - 1];
    if (previous?.startsWith('--') === true && !previous.includes('=')) {
      // The flag decides: `--api-key X` is redacted as one phrase; only the value is replaced.
      if (redactText(`${previous} ${arg}`) === `${redactText(previous)} ${REDACTED}`) return REDACTED;
    }
    return redactText(arg);
  });
}
