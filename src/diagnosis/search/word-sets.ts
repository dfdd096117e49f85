import { asciiBytes, buildTrie } from './build-trie.js';

/**
 * Which of several sets of words a line holds, in one pass over it: an Aho–Corasick automaton over all
 * the words at once, ASCII letters folded, whose states carry the sets their words belong to. The
 * knowledge lists ask this before their regexes run (knowledge/any-of.ts): a line that holds none of a
 * list's words cannot match it, and one pass answers for every list.
 */
export interface WordSets {
  /** A bit per set whose words appear in `line` (a string without its newline; `^`/`$` read as one). */
  maskOf(line: string): number;
  /**
   * The same as `maskOf(line.slice(from))` for the `line` of the last `maskOf` (a line's message after its
   * prefix is asked of after the raw line), mostly without reading it again: see there.
   */
  maskOfTail(line: string, from: number): number;
}

const MAX_HITS = 64;
/** The state of nothing read that begins a word. */
const ROOT = 0;

/** At most 31 sets: the mask is a small integer. */
export const MAX_WORD_SETS = 31;

/**
 * `sets` as one pass. `planned`: a plan written down at build time (word-pass-plan.ts), used when it was
 * made from these very sets (its `words`, the sets as JSON): the automaton is then laid out from it at
 * once, not found word by word.
 */
export function compileWordSets(
  sets: readonly (readonly string[])[],
  planned?: { words: string; plan: string },
): WordSets {
  if (sets.length > MAX_WORD_SETS) throw new Error(`at most ${MAX_WORD_SETS} word sets`);
  const plan =
    planned !== undefined && planned.plan !== '' && JSON.stringify(sets) === planned.words
      ? readPlan(planned.plan)
      : planWordSets(sets);
  return passOf(tableOf(plan));
}

function passOf(built: Table): WordSets {
  const { table, classes, shift, masks, lineStart, firstMasked, depth } = built;
  const newline = classes[0x0a] as number;
  // The last line read whole, and where along it a state added sets (a few places a line; a line with
  // more is read whole again when its tail is asked of).
  let recorded: string | null = null;
  const hitAt = new Int32Array(MAX_HITS);
  const hitMask = new Int32Array(MAX_HITS);
  let hitCount = 0;
  let endMask = 0;
  const maskOf = (line: string): number => {
    let state = lineStart;
    let mask = masks[state] as number;
    let hits = 0;
    for (let i = 0; i < line.length; i++) {
      // Words are ASCII: a character past Latin-1 may read as any byte, it can only add a set.
      state = table[(state << shift) | (classes[line.charCodeAt(i) & 0xff] as number)] as number;
      if (state >= firstMasked) {
        const own = masks[state] as number;
        mask |= own;
        if (hits < MAX_HITS) {
          hitAt[hits] = i;
          hitMask[hits] = own;
        }
        hits++;
      }
    }
    hitCount = hits;
    endMask = masks[table[(state << shift) | newline] as number] as number;
    recorded = line;
    return mask | endMask;
  };
  return {
    maskOf,
    /**
     * A state is the longest end of what was read that begins a word, so it depends on the last `depth`
     * characters alone: the whole line's state where the tail begins is read again from there. Once the
     * tail's own reading reaches the state the whole line's reading has at the same character, the two go
     * on alike, and the rest of the tail adds what the rest of the line added.
     */
    maskOfTail(line, from) {
      if (line !== recorded || hitCount > MAX_HITS || from < 0 || from > line.length) {
        return maskOf(line.slice(from));
      }
      let whole = from <= depth ? lineStart : ROOT;
      for (let i = Math.max(0, from - depth); i < from; i++) {
        whole = table[(whole << shift) | (classes[line.charCodeAt(i) & 0xff] as number)] as number;
      }
      let state = lineStart;
      let mask = masks[state] as number;
      for (let i = from; i < line.length; i++) {
        const byte = classes[line.charCodeAt(i) & 0xff] as number;
        state = table[(state << shift) | byte] as number;
        whole = table[(whole << shift) | byte] as number;
        mask |= masks[state] as number;
        if (state === whole) {
          for (let h = hitCount - 1; h >= 0 && (hitAt[h] as number) > i; h--) mask |= hitMask[h] as number;
          return mask | endMask;
        }
      }
      return mask | (masks[table[(state << shift) | newline] as number] as number);
    },
  };
}

interface Table {
  table: Uint16Array;
  /** Each byte's column in the table (bytes no word holds share column 0; letters of either case share one). */
  classes: Uint8Array;
  /** A state's row starts at `state << shift`. */
  shift: number;
  masks: Int32Array;
  lineStart: number;
  /** States from this number on add sets. */
  firstMasked: number;
  /** The longest word: no state stands for more characters. */
  depth: number;
}

/**
 * How to lay out the automaton's table without its words: the states in the order their rows are written
 * (breadth first), each one's failure link and the entries its own words set, and every state's mask.
 * Finding these from the words is most of the cost of a pass (the trie walked cold, 40-60 ms of CPU at a
 * long log's start); laying out the table from them is a loop over typed arrays.
 */
export interface WordPlan {
  classes: Uint8Array;
  shift: number;
  depth: number;
  firstMasked: number;
  /** State numbers, in the order their rows are written. */
  order: Uint16Array;
  /** By state number: the state whose row a state's row starts as a copy of. */
  failure: Uint16Array;
  /** By state number: the sets a state adds. */
  masks: Int32Array;
  /** By place in `order`: where its entries begin in `columns` and `targets` (one more at the end). */
  entryStart: Uint32Array;
  columns: Uint8Array;
  targets: Uint16Array;
}

export function planWordSets(sets: readonly (readonly string[])[]): WordPlan {
  const words = sets.flatMap((set) => set);
  const setOf = sets.flatMap((set, index) => set.map(() => index));
  for (const word of words) if (word.length === 0) throw new Error('a word set holds an empty word');
  const spelled = words.map((word) => asciiBytes(word, 'a word set'));
  const { children, ends: own } = buildTrie(spelled, (index) => 1 << (setOf[index] as number));
  const count = children.length;
  if (count > 0xffff) throw new Error('too many words for one automaton');
  // A column per byte the words hold, not 256: every byte no word holds leads every state where the
  // others do not, so one column stands for all of them. The table is a quarter as large (the knowledge
  // lists' words hold about 60 bytes), and less of the cache is taken while it is read.
  const { classes, shift } = classesOf(spelled);
  const width = 1 << shift;
  // States are numbered as they are found, those that add sets from the top down and the rest from 0 up,
  // so that a step tells by its state's number alone whether to look at its mask (few states add sets,
  // and the pass reads every character). The table is written here too: a failure link is read from it.
  const table = new Uint16Array(count << shift);
  const masks = new Int32Array(count);
  const failure = new Uint16Array(count);
  const numbered = new Uint16Array(count);
  const order = new Uint16Array(count);
  const entryStart = new Uint32Array(count + 1);
  const columns = new Uint8Array(Math.max(0, count - 1));
  const targets = new Uint16Array(Math.max(0, count - 1));
  let entries = 0;
  // The root adds nothing (no word is empty): it is ROOT, which the entries no word sets read as.
  let low = 1;
  let high = count - 1;
  // Breadth first: a state's failure link is shallower, so its row and its mask are complete when used.
  const queue = [0];
  for (let head = 0; head < queue.length; head++) {
    const state = queue[head] as number;
    const at = numbered[state] as number;
    const row = at << shift;
    order[head] = at;
    entryStart[head] = entries;
    if (state !== 0) {
      const link = (failure[at] as number) << shift;
      table.copyWithin(row, link, link + width);
    }
    for (const [byte, child] of children[state] ?? []) {
      const column = classes[byte] as number;
      const link = state === 0 ? 0 : (table[row + column] as number);
      const mask = (own[child] as number) | (masks[link] as number);
      const number = mask === 0 ? low++ : high--;
      numbered[child] = number;
      failure[number] = link;
      masks[number] = mask;
      table[row + column] = number;
      columns[entries] = column;
      targets[entries] = number;
      entries++;
      queue.push(child);
    }
  }
  entryStart[count] = entries;
  const depth = words.reduce((most, word) => Math.max(most, word.length), 0);
  return { classes, shift, depth, firstMasked: low, order, failure, masks, entryStart, columns, targets };
}

/** The table a plan lays out: each row a copy of its failure link's, then its own entries. */
function tableOf(plan: WordPlan): Table {
  const { classes, shift, order, failure, entryStart, columns, targets } = plan;
  const width = 1 << shift;
  const table = new Uint16Array(order.length << shift);
  for (let i = 0; i < order.length; i++) {
    const at = order[i] as number;
    const row = at << shift;
    if (i !== 0) {
      const link = (failure[at] as number) << shift;
      table.copyWithin(row, link, link + width);
    }
    for (let e = entryStart[i] as number; e < (entryStart[i + 1] as number); e++) {
      table[row + (columns[e] as number)] = targets[e] as number;
    }
  }
  return {
    table,
    classes,
    shift,
    masks: plan.masks,
    lineStart: table[classes[0x0a] as number] as number,
    firstMasked: plan.firstMasked,
    depth: plan.depth,
  };
}

/** Header numbers of a written plan: states, entries, shift, depth, firstMasked. */
const HEADER = 5;

/** A plan as base64 text, its arrays one after another (each starting at a multiple of 4 bytes). */
export function writePlan(plan: WordPlan): string {
  const count = plan.order.length;
  const entries = plan.columns.length;
  const parts: ArrayBufferView[] = [
    Int32Array.from([count, entries, plan.shift, plan.depth, plan.firstMasked]),
    plan.classes,
    plan.order,
    plan.failure,
    plan.masks,
    plan.entryStart,
    plan.columns,
    plan.targets,
  ];
  const bytes = parts.map((part) => Buffer.from(part.buffer, part.byteOffset, part.byteLength));
  const padded = bytes.flatMap((part) => [part, Buffer.alloc((4 - (part.length % 4)) % 4)]);
  return Buffer.concat(padded).toString('base64');
}

/** The plan `writePlan` wrote. */
export function readPlan(text: string): WordPlan {
  // A copy of its own, so that every array starts where its element size allows.
  const bytes = new Uint8Array(Buffer.from(text, 'base64'));
  const buffer = bytes.buffer;
  const [count, entries, shift, depth, firstMasked] = new Int32Array(
    buffer,
    0,
    HEADER,
  ) as unknown as number[];
  let at = HEADER * 4;
  const take = <T>(make: (offset: number) => T, length: number, size: number): T => {
    const taken = make(at);
    at += Math.ceil((length * size) / 4) * 4;
    return taken;
  };
  const n = count as number;
  const m = entries as number;
  const classes = take((o) => new Uint8Array(buffer, o, 256), 256, 1);
  const order = take((o) => new Uint16Array(buffer, o, n), n, 2);
  const failure = take((o) => new Uint16Array(buffer, o, n), n, 2);
  const masks = take((o) => new Int32Array(buffer, o, n), n, 4);
  const entryStart = take((o) => new Uint32Array(buffer, o, n + 1), n + 1, 4);
  const columns = take((o) => new Uint8Array(buffer, o, m), m, 1);
  const targets = take((o) => new Uint16Array(buffer, o, m), m, 2);
  return {
    classes,
    shift: shift as number,
    depth: depth as number,
    firstMasked: firstMasked as number,
    order,
    failure,
    masks,
    entryStart,
    columns,
    targets,
  };
}

/**
 * Each byte's column: 1, 2, … for the bytes the (lowered) words hold, an upper-case letter in its lower
 * case's column, and 0 for every other byte; `shift` makes a row wide enough for them all.
 */
function classesOf(words: readonly number[][]): { classes: Uint8Array; shift: number } {
  const classes = new Uint8Array(256);
  let next = 1;
  for (const word of words) {
    for (const byte of word) {
      if (classes[byte] !== 0) continue;
      classes[byte] = next;
      if (byte >= 0x61 && byte <= 0x7a) classes[byte - 0x20] = next;
      next++;
    }
  }
  return { classes, shift: Math.max(1, 32 - Math.clz32(next - 1)) };
}
