/** Vigil's version: package.json's, which a test keeps it equal to (reports and `vigil --version` carry it). */
export const VERSION = '0.1.0';
