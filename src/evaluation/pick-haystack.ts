import type { LabelledCase } from './evaluate-cases.js';

/** The failure's own engine's healthy logs, as a server's own journal holds them; all when it has none. */
export function pickOwnEngine(
  healthy: readonly LabelledCase[],
  failure: LabelledCase,
): readonly LabelledCase[] {
  const own = healthy.filter((c) => c.label.engine !== undefined && c.label.engine === failure.label.engine);
  return own.length > 0 ? own : healthy;
}

const ORDERLY_END = /Application shutdown complete\.\s*$/;

/**
 * One vLLM run that ended in an orderly shutdown (its last line `Application shutdown complete.`), the
 * first by name: what a failure is read after when the server was stopped and started again. None when
 * the healthy logs hold no such run.
 */
export function pickAfterShutdown(healthy: readonly LabelledCase[]): readonly LabelledCase[] {
  const runs = healthy
    .filter((c) => c.label.engine === 'vllm' && ORDERLY_END.test(c.text))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return runs.slice(0, 1);
}
