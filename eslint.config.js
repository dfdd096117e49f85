import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const LOG_PROGRAMS = '/^(journalctl|systemctl|docker|podman|kubectl|ssh)$/';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'bench/out/', '**/fixtures/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.js', '*.mjs', 'bench/*.mjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: true },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The pure core: no files, processes, clock or console.
    files: [
      'src/parsing/**',
      'src/diagnosis/**',
      'src/signatures/**',
      'src/reporting/**',
      'src/redaction/**',
      'src/timeline/**',
      'src/elf/**',
      'src/engines/**',
      'src/runtimes/**',
      'src/fix/**',
      'src/incidents/**',
    ],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['node:fs*', 'node:child_process', 'node:net', 'fs', 'child_process'] },
      ],
      'no-restricted-globals': ['error', 'process'],
      'no-console': 'error',
    },
  },
  {
    // The log-target layer: only src/sources names the programs that read a log or its unit (journalctl,
    // systemctl, docker, podman, kubectl) or a remote host (ssh); everyone else asks sources for the log.
    files: ['src/**/*.ts'],
    ignores: ['src/sources/**', '**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: `CallExpression[arguments.0.value=${LOG_PROGRAMS}]`,
          message: 'a log program runs only in src/sources (the log-target layer): read the log through it',
        },
      ],
    },
  },
  {
    // watch, fleets and the CLI start no program of their own: they hand an injected runner to sources.
    files: ['src/supervision/watch/**', 'src/fleet/**', 'src/cli/**'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['node:child_process', 'child_process'],
          patterns: [
            {
              group: ['**/system/run-command.js'],
              importNames: ['runCommand', 'startCommand'],
              message: 'take a CommandRunner and read through src/sources',
            },
          ],
        },
      ],
    },
  },
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
);
