/** Vigil's version, as `--version` prints it and every report carries it. */
export const VERSION = '0.1.0';
