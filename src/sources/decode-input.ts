import { SourceError } from '../errors.js';
import { findExecutable } from '../environment/find-executable.js';
import { gunzipChunks } from './gunzip-chunks.js';
import { runFilter } from './run-filter.js';
import { DECOMPRESSORS, type InputKind } from './sniff-input.js';

/** An input once its kind is known: how to get its text, and the format to report. */
export interface DecodePlan {
  /** The text's bytes, from the raw body (the head included). */
  decode(body: AsyncIterable<Uint8Array>, warnings: string[]): AsyncIterable<Uint8Array>;
  /** 'gzip', 'xz', 'utf-16le', 'journal-file'; null for plain text. */
  format: string | null;
}

const PLAIN: DecodePlan = { decode: (body) => body, format: null };

/**
 * Decides at open time how an input of this kind is read, so a refusal or a missing program is one line
 * before anything is read. `path` is null for stdin.
 */
export function planDecode(
  kind: InputKind,
  label: string,
  path: string | null,
  env: Record<string, string | undefined>,
): DecodePlan {
  switch (kind.kind) {
    case 'text':
      return PLAIN;
    case 'gzip':
      return { decode: (body, warnings) => gunzipChunks(label, body, warnings), format: 'gzip' };
    case 'utf-16':
      return { decode: (body) => decodeUtf16(body, kind.encoding), format: kind.encoding };
    case 'compressed': {
      const tool = DECOMPRESSORS[kind.format];
      const program = findExecutable(tool.program, env);
      if (program === null) {
        throw new SourceError(
          `${label} is ${kind.format}-compressed and ${tool.program} is not installed: install it (apt-get install ${tool.debian}) or run ${tool.program} -dc FILE | vigil diagnose -`,
        );
      }
      return {
        decode: (body) => runFilter(program, tool.args, body, { env, label }),
        format: kind.format,
      };
    }
    case 'journal-file':
      return planJournalFile(label, path, env);
    case 'refused':
      throw new SourceError(`${label} ${kind.reason}`);
  }
}

/** A journal file is a database, not text: the real journalctl reads it, in the short format. */
function planJournalFile(
  label: string,
  path: string | null,
  env: Record<string, string | undefined>,
): DecodePlan {
  const journalctl = findExecutable('journalctl', env);
  if (path === null || journalctl === null) {
    const how =
      path === null
        ? 'give its path (vigil diagnose FILE.journal), or run journalctl --file=FILE | vigil diagnose -'
        : `journalctl is not installed (apt-get install systemd); or, where it is: journalctl --file=${path} | vigil diagnose -`;
    throw new SourceError(`${label} is a systemd journal file: ${how}`);
  }
  const args = ['--no-pager', '--utc', '--all', '--output=short', `--file=${path}`];
  return { decode: () => runFilter(journalctl, args, null, { env, label }), format: 'journal-file' };
}

async function* decodeUtf16(
  body: AsyncIterable<Uint8Array>,
  encoding: 'utf-16le' | 'utf-16be',
): AsyncGenerator<Uint8Array> {
  // Streaming: a character cut between two chunks is completed by the next one. The BOM is dropped.
  const decoder = new TextDecoder(encoding);
  for await (const chunk of body) {
    const text = decoder.decode(chunk, { stream: true });
    if (text !== '') yield Buffer.from(text, 'utf8');
  }
  const rest = decoder.decode();
  if (rest !== '') yield Buffer.from(rest, 'utf8');
}
