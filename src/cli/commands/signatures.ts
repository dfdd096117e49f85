import type { Command } from 'commander';
import pc from 'picocolors';
import { UsageError } from '../../errors.js';
import { loadSignatures } from '../../rules/load-user-signatures.js';
import { fixtureNames } from '../../signatures/index.js';
import type { Signature } from '../../signatures/index.js';
import { serializeSignature } from '../../signatures/serialize-signature.js';
import { wantsColor } from '../io.js';
import type { CliIo } from '../io.js';
import type { SetExit } from './index.js';
import { COMMAND_SUMMARIES } from './summaries.js';

interface SignaturesOptions {
  format: string;
  rules: string[];
}

const FORMATS = ['table', 'json'];

/** `vigil signatures` lists the knowledge base; `vigil signatures show ID` prints one signature. */
export function registerSignatures(program: Command, io: CliIo, setExit: SetExit): void {
  const command = program
    .command('signatures')
    .description(COMMAND_SUMMARIES.signatures.description)
    .option('--format <format>', `output format: ${FORMATS.join(' or ')}`, 'table')
    .option(
      '--rules <dir>',
      'also load signatures from this folder of YAML/JSON rules (repeatable)',
      (value: string, previous: string[]) => [...previous, value],
      [],
    )
    .action(async (options: SignaturesOptions) => {
      checkFormat(options.format);
      const { signatures, userFiles } = await loadSignatures({
        rulesDirs: options.rules,
        env: io.env,
        strict: true,
      });
      if (options.format === 'json') {
        const list = signatures.map((signature) => ({
          ...serializeSignature(signature),
          source: userFiles.get(signature.id) ?? 'built-in',
        }));
        io.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
      } else {
        io.stdout.write(renderTable(signatures, userFiles, wantsColor(io)));
      }
      setExit(0);
    });

  command
    .command('show <id>')
    .description(
      'Print one signature with its explanation, fix and fixtures (takes --format and --rules too)',
    )
    .action(async (id: string) => {
      const options = command.opts<SignaturesOptions>();
      checkFormat(options.format);
      const { signatures, userFiles } = await loadSignatures({
        rulesDirs: options.rules,
        env: io.env,
        strict: true,
      });
      const signature = signatures.find((candidate) => candidate.id === id);
      if (signature === undefined) throw unknownId(id, signatures);
      const source = userFiles.get(id) ?? 'built-in';
      const fixtures = source === 'built-in' ? (fixtureNames[id] ?? { matches: [], ignores: [] }) : null;
      if (options.format === 'json') {
        io.stdout.write(
          // `signature` alone is a valid user rule file: jq .signature > rule.json
          `${JSON.stringify({ signature: serializeSignature(signature), source, fixtures }, null, 2)}\n`,
        );
      } else {
        io.stdout.write(renderSignature(signature, source, fixtures, wantsColor(io)));
      }
      setExit(0);
    });
}

function checkFormat(format: string): void {
  if (!FORMATS.includes(format)) {
    throw new UsageError(`--format: expected ${FORMATS.join(' or ')}, got "${format}"`);
  }
}

function unknownId(id: string, signatures: readonly Signature[]): UsageError {
  const words = id
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 2);
  const near = signatures
    .map((signature) => ({
      id: signature.id,
      shared: words.filter((word) => signature.id.includes(word)).length,
    }))
    .filter((candidate) => candidate.shared > 0)
    .sort((a, b) => b.shared - a.shared || a.id.localeCompare(b.id))
    .slice(0, 3)
    .map((candidate) => candidate.id);
  const hint = near.length > 0 ? `did you mean ${near.join(', ')}? ` : '';
  return new UsageError(`no signature with id "${id}"; ${hint}run vigil signatures to list them`);
}

function renderTable(
  signatures: readonly Signature[],
  userFiles: Map<string, string>,
  color: boolean,
): string {
  const c = pc.createColors(color);
  const rows = signatures.map((signature) => [
    signature.id + (userFiles.has(signature.id) ? ' *' : ''),
    signature.category,
    signature.engines.join(','),
    signature.title,
  ]);
  const header = ['ID', 'CATEGORY', 'ENGINES', 'TITLE'];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)),
  );
  const line = (cells: string[]): string =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd();
  const footer =
    `${signatures.length} signatures` +
    (userFiles.size > 0 ? `; * from your rules (${userFiles.size})` : '') +
    '. vigil signatures show ID prints one.';
  return [c.bold(line(header)), ...rows.map(line), '', c.dim(footer), ''].join('\n');
}

function renderSignature(
  signature: Signature,
  source: string,
  fixtures: { readonly matches: readonly string[]; readonly ignores: readonly string[] } | null,
  color: boolean,
): string {
  const c = pc.createColors(color);
  const label = (name: string): string => c.bold(name.padEnd(16));
  const lines = [
    `${c.bold(signature.id)}: ${signature.title}`,
    '',
    `${label('category')}${signature.category}`,
    `${label('engines')}${signature.engines.join(', ')}`,
    `${label('source')}${source}`,
    `${label('keywords')}${signature.keywords.join(', ')}`,
  ];
  const match = serializeSignature(signature).match;
  for (const [field, value] of Object.entries(match)) {
    lines.push(`${label(`match.${field}`)}${value ?? 'null (not a Python exception)'}`);
  }
  if (signature.weight !== undefined) lines.push(`${label('weight')}${signature.weight}`);
  lines.push('', `${label('explanation')}${signature.explanation}`, `${label('fix')}${signature.fix}`);
  if (signature.alternative !== undefined) lines.push(`${label('alternative')}${signature.alternative}`);
  for (const reference of signature.references) lines.push(`${label('reference')}${reference}`);
  if (fixtures !== null) {
    lines.push('', c.bold('fixtures'));
    for (const name of fixtures.matches) lines.push(`  matches       ${name}`);
    for (const name of fixtures.ignores) lines.push(`  ignores       ${name}`);
  }
  return `${lines.join('\n')}\n`;
}
