/**
 * The page's one stylesheet. Colours are CSS variables with a dark set under prefers-color-scheme; every
 * text colour is at least 4.5:1 against the background it sits on (WCAG AA), which the browser test
 * measures. No web fonts and no url(): the page makes no request.
 */
export const PAGE_STYLE = `
:root {
  color-scheme: light dark;
  --bg: #ffffff; --fg: #1a1a1a; --muted: #4f4f4f; --line: #d0d0d0; --panel: #f3f4f6;
  --bad: #a3001b; --bad-bg: #fdecee; --good: #1a6b24; --good-bg: #e9f6eb; --warn: #7a4a00;
  --accent: #0b57d0; --phase-a: #6c8ebf; --phase-b: #9a7fc1; --phase-c: #4f9d8f; --phase-d: #c18f4f;
  --ready: #1a6b24; --tick: #a3001b; --tick-other: #8a8a8a; --bar-bg: #e5e7eb;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #121417; --fg: #e8e8e8; --muted: #b4b4b4; --line: #3a3f45; --panel: #1d2126;
    --bad: #ff8f8f; --bad-bg: #3a1418; --good: #86d38f; --good-bg: #15301a; --warn: #f0c36a;
    --accent: #8ab4f8; --phase-a: #52739f; --phase-b: #7a64a0; --phase-c: #3f7d72; --phase-d: #9c733f;
    --ready: #86d38f; --tick: #ff8f8f; --tick-other: #9a9a9a; --bar-bg: #2a2f35;
  }
}
* { box-sizing: border-box; }
html { background: var(--bg); color: var(--fg); }
body { margin: 0; overflow-wrap: anywhere; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
main { max-width: 72rem; margin: 0 auto; padding: 1.25rem 1rem 3rem; }
h1 { font-size: 1.35rem; line-height: 1.3; margin: 0.25rem 0 0.5rem; overflow-wrap: anywhere; }
h2 { font-size: 1.05rem; margin: 1.75rem 0 0.5rem; border-bottom: 1px solid var(--line); padding-bottom: 0.25rem; }
h3 { font-size: 1rem; margin: 1rem 0 0.25rem; }
p { margin: 0.4rem 0; }
a { color: var(--accent); }
code, pre, .log { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 0.875rem; }
.kicker { color: var(--muted); font-size: 0.875rem; margin: 0; }
.verdict { border-left: 6px solid var(--bad); background: var(--bad-bg); padding: 0.75rem 1rem; border-radius: 6px; }
.verdict.ok { border-color: var(--good); background: var(--good-bg); }
.verdict .mark { color: var(--bad); }
.verdict.ok .mark { color: var(--good); }
.title { font-weight: 600; }
.tag { display: inline-block; border: 1px solid var(--line); border-radius: 999px; padding: 0 0.5rem; font-size: 0.8rem; color: var(--muted); font-weight: 400; }
.general { color: var(--warn); }
.fix { margin-top: 1rem; }
.command { display: flex; gap: 0.5rem; align-items: flex-start; }
.command pre { flex: 1; margin: 0; background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 0.6rem 0.75rem; white-space: pre-wrap; overflow-wrap: anywhere; }
.command button { font: inherit; font-size: 0.875rem; padding: 0.45rem 0.8rem; border-radius: 6px; border: 1px solid var(--accent); background: var(--bg); color: var(--accent); cursor: pointer; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.2rem 1rem; margin: 0.75rem 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
.log, .site { unicode-bidi: plaintext; overflow-wrap: anywhere; }
table { border-collapse: collapse; width: 100%; font-size: 0.9rem; table-layout: fixed; }
th, td { text-align: left; padding: 0.3rem 0.5rem; border-bottom: 1px solid var(--line); vertical-align: top; overflow-wrap: anywhere; }
th { color: var(--muted); font-weight: 600; }
.summary td.bad { color: var(--bad); font-weight: 600; }
.summary td.good { color: var(--good); font-weight: 600; }
details { margin: 0.75rem 0; border: 1px solid var(--line); border-radius: 6px; padding: 0.25rem 0.75rem; }
summary { cursor: pointer; font-weight: 600; padding: 0.25rem 0; }
ol.lines { list-style: none; margin: 0.25rem 0; padding: 0; }
ol.lines li { display: grid; grid-template-columns: 4.5rem 1fr; gap: 0.5rem; }
ol.lines .n { color: var(--muted); text-align: right; font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 0.875rem; }
ul.groups { list-style: none; margin: 0; padding: 0; }
ul.groups li { border-bottom: 1px solid var(--line); padding: 0.4rem 0; }
ul.groups code { display: block; white-space: pre-wrap; }
.attempt { margin: 0.75rem 0 1.25rem; }
.attempt svg { display: block; width: 100%; height: 2.25rem; }
.attempt .head { display: flex; flex-wrap: wrap; gap: 0 0.75rem; align-items: baseline; }
.attempt .state-failed { color: var(--bad); font-weight: 600; }
.attempt .state-ready { color: var(--good); font-weight: 600; }
.attempt .state-unknown { color: var(--muted); }
.legend { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; margin: 0.35rem 0 0; padding: 0; list-style: none; font-size: 0.875rem; color: var(--muted); }
.swatch { display: inline-block; width: 0.8rem; height: 0.8rem; border-radius: 2px; vertical-align: -0.1rem; margin-right: 0.3rem; }
.sw-0 { background: var(--phase-a); } .sw-1 { background: var(--phase-b); } .sw-2 { background: var(--phase-c); } .sw-3 { background: var(--phase-d); }
.sw-fail { background: var(--tick); } .sw-ready { background: var(--ready); }
.phase-0 { fill: var(--phase-a); } .phase-1 { fill: var(--phase-b); } .phase-2 { fill: var(--phase-c); } .phase-3 { fill: var(--phase-d); }
.bar-bg { fill: var(--bar-bg); } .tick { fill: var(--tick); } .tick-other { fill: var(--tick-other); } .ready { fill: var(--ready); }
.warning { color: var(--warn); }
footer { margin-top: 2rem; color: var(--muted); font-size: 0.875rem; border-top: 1px solid var(--line); padding-top: 0.5rem; }
.sev-error { color: var(--bad); font-weight: 600; } .sev-warning { color: var(--warn); font-weight: 600; } .sev-info { color: var(--muted); }
@media (max-width: 40rem) {
  main { padding: 0.75rem 0.75rem 2rem; }
  h1 { font-size: 1.15rem; }
  dl.facts { grid-template-columns: 1fr; }
  dl.facts dd { margin-bottom: 0.35rem; }
  ol.lines li { grid-template-columns: 3rem 1fr; }
  .command { flex-direction: column; align-items: stretch; }
}
@media print {
  @page { size: A4; margin: 14mm; }
  :root { --bg: #ffffff; --fg: #000000; --muted: #333333; --panel: #ffffff; --bad-bg: #ffffff; --good-bg: #ffffff; }
  body { font-size: 10.5pt; }
  main { max-width: none; padding: 0; }
  .command button { display: none; }
  details { border: none; padding: 0; }
  .attempt, tr, li { break-inside: avoid; }
}
`;
