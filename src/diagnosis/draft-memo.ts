import type { Level, ParsedLine } from '../parsing/parsed-line.js';
import { draftFromLine, fingerprintDraft, redraft, type Draft } from './collect-candidates.js';

/** All that reading a line outside any traceback needs: its draft and its group's fingerprint. */
export type LineDraft = { draft: Draft; fingerprint: string } | 'noise' | null;

/** Distinct texts kept before the memo starts again; about a megabyte at the lengths kept. */
const MAX_KEPT = 4096;
/** A longer text is drafted each time: such lines seldom repeat, and keeping them would cost memory. */
const MAX_TEXT = 512;

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
    if (text.length > MAX_TEXT) return draftOf(line);
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
