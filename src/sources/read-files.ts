import { closeSync, fstatSync, openSync, read, readSync, statSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { SourceError, UsageError } from '../errors.js';
import { isDevice, readFailed } from './describe-read-error.js';
import { planDecode, type DecodePlan } from './decode-input.js';
import { LIMITS } from '../limits.js';
import { capInput } from './cap-input.js';
import { prepend, type LogInput } from './log-input.js';
import { openStdin } from './open-stdin.js';
import { SNIFF_BYTES, sniffInput, type InputKind } from './sniff-input.js';
import type { OpenedSource, SourceIo } from './types.js';

/** An input with what its first bytes say it is and how its text is read. */
type SniffedInput = LogInput & { plan: DecodePlan };

// Large reads keep the per-chunk cost of the consumer's scanning loop negligible (see perf-anchors.md).
const CHUNK_BYTES = 1 << 20;
const NEWLINE = Buffer.from('\n');

/**
 * Opens every file up front, so a missing or unreadable one fails before any reading, then reads them one
 * after the other as one log. '-' is stdin. No paths means stdin, as with cat.
 */
export async function openFiles(
  paths: string[],
  io: Pick<SourceIo, 'stdin' | 'stdinFd' | 'env'>,
  options: { reuseChunks?: boolean } = {},
): Promise<OpenedSource> {
  const env = io.env;
  const names = paths.length === 0 ? ['-'] : paths;
  if (names.filter((name) => name === '-').length > 1) {
    throw new UsageError("stdin ('-') can be given only once");
  }
  const inputs: SniffedInput[] = [];
  const warnings: string[] = [];
  let cut: string | undefined;
  try {
    for (const name of names) {
      const opened = name === '-' ? await openStdin(io) : await openFile(name, options.reuseChunks === true);
      const input =
        opened.sized === true
          ? opened
          : capPipe(opened, (warning, refusal) => {
              warnings.push(warning);
              cut ??= refusal;
            });
      try {
        const plan = planDecode(input.kind, input.label, name === '-' ? null : name, env);
        inputs.push({ ...input, plan });
      } catch (error) {
        await input.close();
        throw error;
      }
    }
  } catch (error) {
    await Promise.all(inputs.map((input) => input.close()));
    throw error;
  }
  const formats = [...new Set(inputs.flatMap((input) => input.plan.format ?? []))];
  const files = inputs.every((input) => input.readSync !== undefined);
  return {
    chunks: readLogInputs(inputs, warnings),
    ...(files ? { readInto: readFilesInto(inputs) } : {}),
    describe: describeNames(inputs.map((input) => input.label)),
    formats,
    warnings,
    get cut() {
      return cut;
    },
  };
}

/**
 * stdin or a pipe read up to LIMITS.pipeInputBytes, and refused when it holds no line break in its first
 * LIMITS.pipeLineBreakBytes. Past the cap, `onCut` gets the warning for a report and the refusal for when
 * the part read holds no failure (OpenedSource.cut).
 */
function capPipe(input: LogInput, onCut: (warning: string, refusal: string) => void): LogInput {
  const cap = `${LIMITS.pipeInputBytes / 1024 ** 3} GiB`;
  const what =
    "an endless input, or a longer log: give the file's path, or narrow it, e.g. journalctl --since";
  return capInput(input, {
    capBytes: LIMITS.pipeInputBytes,
    lineBreakBytes: LIMITS.pipeLineBreakBytes,
    onCut: () =>
      onCut(
        `${input.label} did not end within ${cap}, so only its first ${cap} were read (${what})`,
        `${input.label} did not end within ${cap} and its first ${cap} hold no failure, which says nothing of the rest (${what})`,
      ),
  });
}

async function* readLogInputs(inputs: SniffedInput[], warnings: string[]): AsyncGenerator<Uint8Array> {
  let next = 0;
  try {
    let endsWithNewline = true;
    for (; next < inputs.length; next += 1) {
      const input = inputs[next];
      if (input === undefined) continue;
      // A file without a final newline must not glue its last line to the next file's first.
      if (!endsWithNewline) yield NEWLINE;
      for await (const chunk of input.plan.decode(input.body, warnings)) {
        if (chunk.length === 0) continue;
        endsWithNewline = chunk[chunk.length - 1] === 0x0a;
        yield chunk;
      }
      await input.close();
    }
  } finally {
    await Promise.all(inputs.slice(next).map((input) => input.close()));
  }
}

async function openFile(path: string, reuseChunks: boolean): Promise<LogInput> {
  const regular = isRegularFile(path) ? openRegularFile(path, reuseChunks) : null;
  if (regular !== null) return regular;
  let handle: FileHandle | undefined;
  try {
    handle = await open(path, 'r');
    const stats = await handle.stat();
    if (stats.isDirectory()) throw Object.assign(new Error('folder'), { code: 'EISDIR' });
    // /dev/zero never ends, a disk is no log: only files and pipes (`<(journalctl ...)`) are read.
    if (isDevice(path, stats)) throw Object.assign(new Error('device'), { code: 'ENOTLOG' });
    const { head, consumed, complete } = await peekHead(handle, stats.isFile() ? stats.size : null);
    const opened = handle;
    const kind = sniffInput(head, complete);
    const plain = kind.kind === 'text';
    const reads = (buffer: Buffer) => opened.read(buffer, 0, CHUNK_BYTES, null).then((r) => r.bytesRead);
    const body = readChunks(path, reads, reuseChunks && readsIntoReused(kind));
    return {
      label: path,
      head,
      complete,
      sized: stats.isFile(),
      kind,
      body: consumed ? prepend(head, body) : body,
      close: () => opened.close().catch(() => undefined),
      // A pipe or a device may block or end early: only a regular file is read synchronously.
      ...(stats.isFile() && !consumed && plain
        ? { readSync: (target: Uint8Array) => readSync(opened.fd, target, 0, target.length, null) }
        : {}),
    };
  } catch (error) {
    await handle?.close().catch(() => undefined);
    throw readFailed(path, error);
  }
}

/**
 * Text, and gzip (whose decoder is done with a chunk before it asks for the next), may be read into reused
 * buffers; the other decoders may hold a chunk.
 */
function readsIntoReused(kind: InputKind): boolean {
  return kind.kind === 'text' || kind.kind === 'gzip';
}

function isRegularFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * A regular file opened, asked for its size and peeked at synchronously: a regular file does not block,
 * and each of those steps through Node's thread pool is a round trip the whole start-up waits for. Null
 * when what was opened is no longer a regular file (replaced since it was asked): the caller opens it as
 * any other path.
 */
function openRegularFile(path: string, reuseChunks: boolean): LogInput | null {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const stats = fstatSync(fd);
    if (!stats.isFile()) {
      closeSync(fd);
      return null;
    }
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const bytesRead = readSync(fd, buffer, 0, SNIFF_BYTES, 0);
    const head = buffer.subarray(0, bytesRead);
    // As in peekHead: /proc and /sys files report size 0 yet hold text.
    const complete = stats.size > 0 ? bytesRead >= stats.size : bytesRead === 0;
    const kind = sniffInput(head, complete);
    const opened = fd;
    let closed = false;
    const reads = (target: Buffer) =>
      new Promise<number>((resolve, reject) => {
        read(opened, target, 0, CHUNK_BYTES, null, (error, count) =>
          error ? reject(error) : resolve(count),
        );
      });
    return {
      label: path,
      head,
      complete,
      sized: true,
      kind,
      body: readChunks(path, reads, reuseChunks && readsIntoReused(kind)),
      // Once only: the number may belong to another file after.
      close: () => {
        if (!closed) {
          closed = true;
          try {
            closeSync(opened);
          } catch {
            // Nothing more can be done with it.
          }
        }
        return Promise.resolve();
      },
      ...(kind.kind === 'text'
        ? { readSync: (target: Uint8Array) => readSync(opened, target, 0, target.length, null) }
        : {}),
    };
  } catch (error) {
    try {
      if (fd !== undefined) closeSync(fd);
    } catch {
      // Closed already, or it cannot be: the error to report is the first one.
    }
    throw readFailed(path, error);
  }
}

/**
 * The first bytes, to tell what the input is (sniff-input.ts). A positioned read leaves a regular file's
 * offset alone; pipes and /dev/stdin cannot seek, so there the bytes are consumed and must be yielded
 * before the rest. `size` is a regular file's size (null otherwise), to know whether the head is all.
 */
async function peekHead(
  handle: FileHandle,
  size: number | null,
): Promise<{ head: Buffer; consumed: boolean; complete: boolean }> {
  const head = Buffer.alloc(SNIFF_BYTES);
  try {
    const { bytesRead } = await handle.read(head, 0, SNIFF_BYTES, 0);
    // /proc and /sys files report size 0 yet hold text: a short read is all only when the size says so;
    // a read of nothing is the end (an empty file, /dev/null).
    const complete = size !== null && size > 0 ? bytesRead >= size : bytesRead === 0;
    return { head: head.subarray(0, bytesRead), consumed: false, complete };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESPIPE') throw error;
  }
  let filled = 0;
  let ended = false;
  while (filled < head.length) {
    const { bytesRead } = await handle.read(head, filled, head.length - filled, null);
    if (bytesRead === 0) {
      ended = true;
      break;
    }
    filled += bytesRead;
  }
  return { head: head.subarray(0, filled), consumed: true, complete: ended };
}

/** The body from `reads` (a read of up to CHUNK_BYTES into the buffer given, at the file's offset). */
async function* readChunks(
  path: string,
  reads: (buffer: Buffer) => Promise<number>,
  reuse: boolean,
): AsyncGenerator<Uint8Array> {
  // Two buffers in turn when the consumer is done with a chunk before it asks for the next; else fresh ones.
  const buffers = reuse ? [Buffer.allocUnsafe(CHUNK_BYTES), Buffer.allocUnsafe(CHUNK_BYTES)] : null;
  let turn = 0;
  const nextBuffer = (): Buffer => buffers?.[turn++ % 2] ?? Buffer.allocUnsafe(CHUNK_BYTES);
  // The next read is under way while the consumer scans this chunk: the disk and the scan overlap.
  let next = readChunk(path, reads, nextBuffer());
  for (;;) {
    const chunk = await next;
    if (chunk === null) return;
    next = readChunk(path, reads, nextBuffer());
    // The read ahead must not reject unobserved if the consumer stops here; the loop's await sees it.
    next.catch(() => undefined);
    yield chunk;
  }
}

async function readChunk(
  path: string,
  reads: (buffer: Buffer) => Promise<number>,
  buffer: Buffer,
): Promise<Uint8Array | null> {
  let bytesRead: number;
  try {
    bytesRead = await reads(buffer);
  } catch (error) {
    throw readFailed(path, error);
  }
  if (bytesRead === 0) return null;
  // Pipes return small reads; copy those out rather than pin a mostly empty 1 MiB buffer.
  return bytesRead < CHUNK_BYTES / 4
    ? Buffer.from(buffer.subarray(0, bytesRead))
    : buffer.subarray(0, bytesRead);
}

/**
 * Reads the inputs (regular files, the process's stdin) one after the other into the caller's buffers with
 * `readSync`: on a file in the page cache this is a copy the reading thread makes itself, where an
 * asynchronous read is one a pool thread makes while the others wait for a core. Closes each at its end.
 */
function readFilesInto(inputs: SniffedInput[]): (target: Uint8Array) => number {
  let next = 0;
  let endsWithNewline = true;
  return (target) => {
    for (;;) {
      const input = inputs[next];
      if (input?.readSync === undefined) return 0;
      let count: number;
      try {
        count = input.readSync(target);
      } catch (error) {
        void Promise.all(inputs.slice(next).map((rest) => rest.close()));
        next = inputs.length;
        // A bound's own error (cap-input.ts) already names the input and says what to do.
        throw error instanceof SourceError ? error : readFailed(input.label, error);
      }
      if (count > 0) {
        endsWithNewline = target[count - 1] === 0x0a;
        return count;
      }
      void input.close();
      next += 1;
      // A file without a final newline must not glue its last line to the next file's first.
      if (!endsWithNewline && inputs[next] !== undefined) {
        endsWithNewline = true;
        target[0] = 0x0a;
        return 1;
      }
    }
  };
}

function describeNames(labels: string[]): string {
  if (labels.length <= 3) return labels.join(', ');
  return `${labels.slice(0, 2).join(', ')} and ${labels.length - 2} more files`;
}
