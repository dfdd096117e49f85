import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runVigil, tempDir, writeFiles } from '../hostile/cli-harness.js';

// Issue 31, item 6: Markdown reports are pasted into issue threads, where a fence closed early or raw HTML
// from a log renders (`<img onerror>`, a `</details>` that swallows what follows).

interface Block {
  kind: 'code' | 'prose';
  text: string;
}

/**
 * The report's code blocks and prose, as CommonMark reads fences: one opens with three or more backticks
 * and closes only with a line of at least as many (and nothing else).
 */
function readBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  let fence: string | null = null;
  let lines: string[] = [];
  const close = (kind: Block['kind']) => {
    blocks.push({ kind, text: lines.join('\n') });
    lines = [];
  };
  for (const line of markdown.split('\n')) {
    if (fence === null) {
      const open = /^ {0,3}(`{3,})[^`]*$/.exec(line);
      if (open === null) lines.push(line);
      else {
        close('prose');
        fence = open[1] ?? '';
      }
    } else if (new RegExp(`^ {0,3}\`{${fence.length},}\\s*$`).test(line)) {
      close('code');
      fence = null;
    } else lines.push(line);
  }
  close(fence === null ? 'prose' : 'code');
  return blocks;
}

const prose = (markdown: string) =>
  readBlocks(markdown)
    .filter((b) => b.kind === 'prose')
    .map((b) => b.text)
    .join('\n');
const code = (markdown: string) =>
  readBlocks(markdown)
    .filter((b) => b.kind === 'code')
    .map((b) => b.text);

/** Prose without its inline code spans: a run of n backticks up to the next run of exactly n. */
function withoutCodeSpans(text: string): string {
  let out = '';
  let at = 0;
  while (at < text.length) {
    const open = /`+/g;
    open.lastIndex = at;
    const run = open.exec(text);
    if (run === null) break;
    out += text.slice(at, run.index);
    const closing = new RegExp(`(?<!\`)\`{${run[0].length}}(?!\`)`, 'g');
    closing.lastIndex = run.index + run[0].length;
    const end = closing.exec(text);
    if (end === null) {
      out += run[0];
      at = run.index + run[0].length;
    } else at = end.index + end[0].length;
  }
  return out + text.slice(at);
}

/** Raw HTML a renderer would act on, other than the report's own Evidence <details>. */
function foreignHtml(markdown: string): string[] {
  const text = withoutCodeSpans(prose(markdown))
    .replace('<details><summary>Evidence</summary>', '')
    .replace(/^<\/details>$/m, '');
  return text.match(/<\/?[A-Za-z][^>]*>/g) ?? [];
}

const HOSTILE_LINES = [
  '```',
  '<img src=x onerror=alert(1)>',
  '</details>',
  '````',
  '# not a heading',
  '`````x',
];

function multiLineCrash(): string {
  return [
    'INFO 01-01 00:00:00 [api_server.py:1] vLLM API server version 0.11.0',
    'Traceback (most recent call last):',
    '  File "/opt/venv/lib/python3.12/site-packages/vllm/engine.py", line 10, in start',
    '    raise RuntimeError(msg)',
    'RuntimeError: the config is wrong',
    ...HOSTILE_LINES,
    'and the message goes on',
    '',
  ].join('\n');
}

describe('diagnose --format markdown', () => {
  it('keeps a multi-line root cause with backtick lines in one fence', async () => {
    const dir = await writeFiles({ 'server.log': multiLineCrash() });
    const result = await runVigil(['diagnose', join(dir, 'server.log'), '--format', 'markdown']);
    expect(result.code).toBe(1);
    const rootCause = code(result.stdout).find((block) => block.startsWith('RuntimeError'));
    // The message's lines up to the heading, all in the one fence.
    expect(rootCause).toContain(
      ['RuntimeError: the config is wrong', ...HOSTILE_LINES.slice(0, 5)].join('\n'),
    );
    expect(foreignHtml(result.stdout)).toEqual([]);
    expect(prose(result.stdout)).not.toContain('# not a heading');
  });

  it('escapes HTML outside code: the file name in the footer, the symptoms', async () => {
    const dir = await tempDir();
    const file = join(dir, '<img src=x onerror=alert(1)>.log');
    await writeFile(file, multiLineCrash());
    const result = await runVigil(['diagnose', file, '--format', 'markdown']);
    expect(result.code).toBe(1);
    expect(foreignHtml(result.stdout)).toEqual([]);
    expect(result.stdout).toContain('&lt;img src=x onerror=alert(1)&gt;.log');
  });

  it('keeps an evidence line of backticks inside the Evidence fence', async () => {
    const log = [
      'INFO 01-01 00:00:00 [api_server.py:1] vLLM API server version 0.11.0',
      'ERROR 01-01 00:00:01 [core.py:1] EngineCore failed to start. ```` </details> <img src=x onerror=alert(1)>',
      'RuntimeError: CUDA error: out of memory ````',
      '',
    ].join('\n');
    const dir = await writeFiles({ 'server.log': log });
    const result = await runVigil(['diagnose', join(dir, 'server.log'), '--format', 'markdown']);
    expect(result.code).toBe(1);
    expect(foreignHtml(result.stdout)).toEqual([]);
    expect(code(result.stdout).some((block) => block.includes('<img src=x onerror=alert(1)>'))).toBe(true);
  });
});

describe("run's crash report in Markdown", () => {
  it("puts the server's last lines in a fence", async () => {
    // HTML first: a backtick line before it would open a fence of its own and hide it.
    const lines = ['<img src=x onerror=alert(1)>', ...HOSTILE_LINES];
    const script = `console.log(${JSON.stringify(lines.join('\n'))}); process.exit(3);`;
    const result = await runVigil([
      'run',
      '--no-preflight',
      '--no-history',
      '--quiet',
      '--format',
      'markdown',
      '--',
      process.execPath,
      '-e',
      script,
    ]);
    expect(result.code).toBe(3);
    expect(result.stdout).toContain('<img src=x onerror=alert(1)>');
    expect(foreignHtml(result.stdout)).toEqual([]);
  });
});

describe('check --format markdown', () => {
  it("escapes HTML from a package's metadata", async () => {
    const site = join(await tempDir(), 'site-packages');
    const info = join(site, 'evil-1.0.dist-info');
    await mkdir(info, { recursive: true });
    await writeFile(
      join(info, 'METADATA'),
      'Metadata-Version: 2.1\nName: evil\nVersion: 1.0\nRequires-Dist: missing-dep<img src=x onerror=alert(1)>\n',
    );
    const result = await runVigil(['check', '--site-packages', site, '--format', 'markdown'], {
      env: { PATH: '/nonexistent' },
    });
    expect(result.stdout).toContain('missing-dep');
    expect(foreignHtml(result.stdout)).toEqual([]);
  });
});
