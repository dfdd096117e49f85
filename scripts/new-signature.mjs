#!/usr/bin/env node
// Scaffolds src/signatures/<id>/ from src/signatures/_template/ and regenerates the registry.
// Usage: npm run new-signature -- <kebab-case-id>
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const signaturesDir = join(root, 'src', 'signatures');
const id = process.argv[2] ?? '';

if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(id)) {
  process.stderr.write(
    `usage: npm run new-signature -- <id>\n  the id is kebab-case (a-z, 0-9, single dashes), e.g. cuda-oom-at-load; got "${id}"\n`,
  );
  process.exit(2);
}
const folder = join(signaturesDir, id);
if (existsSync(folder)) {
  process.stderr.write(`src/signatures/${id} already exists\n`);
  process.exit(2);
}
cpSync(join(signaturesDir, '_template'), folder, { recursive: true });
const file = join(folder, 'signature.ts');
writeFileSync(
  file,
  readFileSync(file, 'utf8')
    .replace("id: 'template-id'", `id: '${id}'`)
    .replace(/^\/\/ Scaffolded by.*\n\/\/ src\/signatures.*\n/, ''),
);
execFileSync(process.execPath, [join(root, 'scripts', 'generate-registry.mjs')], { stdio: 'inherit' });
process.stdout.write(
  [
    `Created src/signatures/${id}/:`,
    '  signature.ts                 fill in every field',
    '  fixtures/matches/*.log       logs that must produce this signature (rename the example)',
    '  fixtures/ignores/*.log       look-alikes that must not',
    'Then: npx vitest run src/signatures',
    '',
  ].join('\n'),
);
