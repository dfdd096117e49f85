/**
 * Failures that are not Python exceptions come from the runtimes' grammars (src/runtimes, one folder a
 * runtime); what is left here is what the diagnosis itself knows of build output.
 */
export { FAILURE_LINES, type FailureLine } from '../../runtimes/index.js';

/** Compiler and linker lines inside a build failure's output: the cause behind "Ninja build failed". */
export const BUILD_ERROR =
  /(?:^|\s)(?:fatal error|error): |\/ld: |\bld: cannot find|undefined reference to|collect2: error|nvcc fatal|No such file or directory|command not found|^\s*\/bin\/(?:ba)?sh: (?:line )?\d+: .+: not found/;
