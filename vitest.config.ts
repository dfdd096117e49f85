import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    pool: 'forks',
    // Temp HOME, XDG folders and TMPDIR for the whole run, removed at its end (test/global-setup.ts).
    globalSetup: ['test/global-setup.ts'],
  },
});
