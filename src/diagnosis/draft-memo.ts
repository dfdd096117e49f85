import type { Level, ParsedLine } from '../parsing/parsed-line.js';
import { draftFromLine, fingerprintDraft, redraft, type Draft } from './collect-candidates.js';
import { holdsId } from './fingerprint.js';

/** All that reading a line outside any traceback needs: its draft and its group's fingerprint. */
export type LineDraft = { draft: Draft; fingerprint: string } | 'noise' | null;

/** Distinct texts kept before the memo starts again: at most a few MiB at the lengths kept. */
const MAX_KEPT = 4096;
/**
 * A longer line is drafted each time: such lines seldom repeat, and a kept draft holds its whole line (the
 * text is a part of it).
 */
const MAX_LINE = 1024;

/**
 * Drafts by level and text. draftFromLine and fingerprintDraft read nothing of a line but its level and its
 * text, so a line whose level and text were drafted before gets what that line got, with itself as the line:
 * a long log repeats its failure lines (a rejected request, once per request), and masking each one again
 * for its fingerprint was the largest cost of reading them.
 */
export class DraftMemo {
  private readonly byLevel = new Map<Level | null, Map<string, LineDraft>>();
  private kept = 0;

  draft(line: ParsedLine): LineDraft {
    const text = line.text;
    // A text with an id in it (a request's, a trace's) is new every time: kept, it would only crowd out the
    // texts that do repeat, and each emptying of the memo left their drafts to the old generation (peak
    // RSS 104 → 156 MiB on the 1 GB journal of request errors).
    if (line.raw.length > MAX_LINE || holdsId(text)) return draftOf(line);
    const seen = this.textsOf(line.level);
    const known = seen.get(text);
    if (known === undefined) {
      const drafted = draftOf(line);
      seen.set(text, drafted);
      this.kept++;
      return drafted;
    }
    if (known === null || known === 'noise') return known;
    return { draft: redraft(known.draft, line), fingerprint: known.fingerprint };
  }

  private textsOf(level: Level | null): Map<string, LineDraft> {
    if (this.kept >= MAX_KEPT) {
      this.byLevel.clear();
      this.kept = 0;
    }
    let texts = this.byLevel.get(level);
    if (texts === undefined) {
      texts = new Map();
      this.byLevel.set(level, texts);
    }
    return texts;
  }
}

function draftOf(line: ParsedLine): LineDraft {
  const draft = draftFromLine(line);
  if (draft === null || draft === 'noise') return draft;
  return { draft, fingerprint: fingerprintDraft(draft) };
}
