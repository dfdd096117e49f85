import type {
  Moment,
  StartTimeline,
  TimelineAttempt,
  TimelineFailure,
} from '../../timeline/build-timeline.js';
import { escapeHtml } from './escape-html.js';

const WIDTH = 1000;
const HEIGHT = 36;
const PHASE_COLOURS = 4;

/**
 * The starts of the server as rows of bars: each start's phases in turn, a green mark where it became
 * ready, a red tick where each process first logged an error (the processes of the root cause in red,
 * the others in grey). Bars share one scale, in seconds where the log carries times and in lines where it
 * does not, so a longer start is a longer bar. The words are HTML beside the drawing, so they stay
 * readable at any width. Pure.
 */
export function renderTimeline(timeline: StartTimeline, causeProcesses: ReadonlySet<string>): string {
  if (timeline.attempts.length === 0) return '';
  const timed = timeline.attempts.every((a) => a.start.time !== null && a.end.time !== null);
  const span = Math.max(1, ...timeline.attempts.map((a) => offset(a.end, a, timed)));
  const rows = timeline.attempts.map((a) => renderAttempt(a, span, timed, causeProcesses));
  const dropped =
    timeline.attemptsDropped > 0
      ? `<p class="kicker">${timeline.attemptsDropped} earlier starts not shown.</p>`
      : '';
  const scale = timed ? 'seconds since each start' : 'lines since each start (the log carries no times)';
  return `<section aria-labelledby="timeline-h"><h2 id="timeline-h">Timeline</h2>
<p class="kicker">${timeline.attempts.length} ${timeline.attempts.length === 1 ? 'start' : 'starts'}, on one scale: ${scale}.</p>
${dropped}${rows.join('\n')}</section>`;
}

function renderAttempt(a: TimelineAttempt, span: number, timed: boolean, cause: ReadonlySet<string>): string {
  const x = (m: Moment): number => Math.min(WIDTH, (offset(m, a, timed) / span) * WIDTH);
  const end = x(a.end);
  const shapes: string[] = [`<rect class="bar-bg" x="0" y="8" width="${fmt(end)}" height="20"/>`];
  a.phases.forEach((phase, i) => {
    const from = x(phase.at);
    const next = a.phases[i + 1];
    const to = next ? x(next.at) : end;
    shapes.push(
      `<rect class="phase-${i % PHASE_COLOURS}" x="${fmt(from)}" y="8" width="${fmt(Math.max(1, to - from))}" height="20"><title>${escapeHtml(phase.label)}</title></rect>`,
    );
  });
  if (a.ready)
    shapes.push(
      `<rect class="ready" x="${fmt(Math.max(0, x(a.ready) - 3))}" y="2" width="6" height="32"><title>ready</title></rect>`,
    );
  for (const f of a.failures) {
    const own = cause.has(f.process);
    shapes.push(
      `<rect class="${own ? 'tick' : 'tick-other'}" x="${fmt(Math.max(0, x(f.at) - 1.5))}" y="0" width="3" height="36"><title>${escapeHtml(`${f.process}: first error, line ${f.at.line}`)}</title></rect>`,
    );
  }
  const state =
    a.failed || a.failures.some((f) => cause.has(f.process)) ? 'failed' : a.ready ? 'ready' : 'unknown';
  const stateWords = { failed: 'failed', ready: 'became ready', unknown: 'no outcome in the log' }[state];
  const length = timed ? formatSeconds(offset(a.end, a, true)) : `${a.end.line - a.start.line + 1} lines`;
  const when = a.start.time
    ? `${a.start.time.clock} → ${a.end.time?.clock ?? '?'}`
    : `lines ${a.start.line}–${a.end.line}`;
  const failing = a.failures.filter((f) => cause.has(f.process));
  const legend = [
    ...a.phases.map(
      (p, i) =>
        `<li><span class="swatch sw-${i % PHASE_COLOURS}"></span>${escapeHtml(p.label)} ${describeMoment(p.at, a, timed)}</li>`,
    ),
    ...(a.ready
      ? [`<li><span class="swatch sw-ready"></span>ready ${describeMoment(a.ready, a, timed)}</li>`]
      : []),
    ...(failing.length > 0
      ? [
          `<li><span class="swatch sw-fail"></span>${failing.length} ${failing.length === 1 ? 'process' : 'processes'} failed ${describeMoment(failing[0]?.at ?? a.end, a, timed)}${spanEnd(failing, a, timed)}</li>`,
        ]
      : []),
  ];
  return `<div class="attempt">
<div class="head"><h3>Start ${a.index + 1}</h3><span class="state-${state}">${stateWords}</span><span class="kicker">${escapeHtml(when)}, ${length}</span></div>
<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" preserveAspectRatio="none" role="img" aria-label="${escapeHtml(`Start ${a.index + 1}: ${a.phases.map((p) => p.label).join(', ') || 'no phases seen'}; ${stateWords}`)}">${shapes.join('')}</svg>
<ul class="legend">${legend.join('')}</ul>
</div>`;
}

/** ` – at 23:31:44 (+37 s)` when the processes failed over a stretch, nothing when at one moment. */
function spanEnd(failing: readonly TimelineFailure[], a: TimelineAttempt, timed: boolean): string {
  const first = failing[0];
  const last = failing.at(-1);
  if (!first || !last) return '';
  const from = describeMoment(first.at, a, timed);
  const to = describeMoment(last.at, a, timed);
  return from === to ? '' : ` – ${to}`;
}

function offset(m: Moment, a: TimelineAttempt, timed: boolean): number {
  if (timed && m.time && a.start.time) return Math.max(0, (m.time.ms - a.start.time.ms) / 1000);
  return m.line - a.start.line;
}

function describeMoment(m: Moment, a: TimelineAttempt, timed: boolean): string {
  if (timed && m.time) return `at ${escapeHtml(m.time.clock)} (+${formatSeconds(offset(m, a, true))})`;
  return `at line ${m.line}`;
}

function formatSeconds(seconds: number): string {
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${Math.round(seconds - minutes * 60)} s`;
}

const fmt = (n: number): string => (Math.round(n * 10) / 10).toString();
