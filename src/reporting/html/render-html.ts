import { describeAllClear } from '../describe-health.js';
import type { Finding } from '../../checks/index.js';
import { sortFindings } from '../check/sort-findings.js';
import { describeProcesses } from '../describe-processes.js';
import { firstLine, formatSite } from '../render-text.js';
import type { Diagnosis } from '../../types/diagnosis.js';
import { COPY_SCRIPT, hashSource } from './copy-script.js';
import { escapeHtml as esc } from './escape-html.js';
import type { IncidentPage, PageReport } from './incident-page.js';
import { PAGE_STYLE } from './page-style.js';
import { renderTimeline } from './render-timeline.js';

const MAX_LINE = 2000;

/**
 * The diagnosis as one self-contained HTML page: verdict and root cause first, the fix with a copy
 * button, where it was raised and crashed, the starts on a timeline, the processes, the evidence folded.
 * Inline CSS and SVG only; the Content-Security-Policy admits exactly the page's own style and script by
 * hash and no request of any kind, so the page opens offline years later and log text can never run.
 * Every string from a log goes through escapeHtml. Pure.
 */
export function renderHtml(page: IncidentPage): string {
  const csp = [
    "default-src 'none'",
    `style-src ${hashSource(PAGE_STYLE)}`,
    `script-src ${hashSource(COPY_SCRIPT)}`,
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  const many = page.reports.length > 1;
  const body = [
    many ? renderSummary(page) : '',
    ...page.reports.map((report, i) => renderReport(report, i, many)),
    page.findings ? renderFindings(page.findings) : '',
    renderFooter(page),
  ].join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="generator" content="vigil ${esc(page.vigilVersion)}">
<title>${esc(pageTitle(page))}</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
<main>
${body}
</main>
<script>${COPY_SCRIPT}</script>
</body>
</html>
`;
}

/** Whether a report failed: what became of it where the caller knows, else its diagnosis's verdict. */
function failedOf(r: PageReport): boolean {
  return r.outcome?.failed ?? r.diagnosis?.verdict === 'failure';
}

/** One line for a report in a summary: its outcome, or its diagnosis's root cause. */
function summaryOf(r: PageReport): string {
  if (r.outcome) return clip(r.outcome.summary, 300);
  return r.diagnosis && r.diagnosis.verdict === 'failure' ? headline(r.diagnosis) : '';
}

function pageTitle(page: IncidentPage): string {
  const failed = page.reports.filter(failedOf);
  if (page.reports.length > 1) return `Vigil: ${failed.length} of ${page.reports.length} logs failed`;
  const d = page.reports[0]?.diagnosis;
  if (!d) return 'Vigil: no failure found';
  if (d.verdict === 'no-failure') return `Vigil: ${describeAllClear(d).headline}`;
  return `Vigil: ${d.signature?.title ?? headline(d)}`;
}

function headline(d: Diagnosis): string {
  const rc = d.rootCause;
  if (!rc) return 'the start failed';
  return clip(`${rc.exception ? `${rc.exception}: ` : ''}${firstLine(rc.message)}`, 300);
}

function renderSummary(page: IncidentPage): string {
  const failed = page.reports.filter(failedOf).length;
  const rows = page.reports.map((r, i) => {
    const bad = failedOf(r);
    return `<tr><td><a href="#report-${i}">${esc(r.label ?? `log ${i + 1}`)}</a></td><td class="${bad ? 'bad' : 'good'}">${bad ? 'failure' : 'no failure'}</td><td class="log">${esc(summaryOf(r))}</td></tr>`;
  });
  const groups =
    page.groups.length > 0
      ? `<h2>Causes</h2><table><thead><tr><th>Logs</th><th>Root cause</th></tr></thead><tbody>${page.groups
          .map(
            (g) =>
              `<tr><td>${g.members.length} of ${page.reports.length}: ${esc(g.members.join(', '))}</td><td class="log">${esc(clip(g.cause, 400))}</td></tr>`,
          )
          .join('')}</tbody></table>`
      : '';
  return `<header class="verdict${failed === 0 ? ' ok' : ''}">
<p class="kicker">Vigil diagnosis of ${page.target ? esc(page.target) : `${page.reports.length} logs`}</p>
<h1><span class="mark">${failed === 0 ? '✔' : '✖'}</span> ${failed} of ${page.reports.length} failed</h1>
</header>
<table class="summary"><thead><tr><th>Log</th><th>Verdict</th><th>Root cause</th></tr></thead><tbody>${rows.join('')}</tbody></table>
${groups}
${renderGroupFixes(page)}`;
}

/** A fleet's fixes, each once for the members it is for, not repeated in every member's section. */
function renderGroupFixes(page: IncidentPage): string {
  const fixes = page.groups.flatMap((group) => group.fixes ?? []);
  if (fixes.length === 0) return '';
  const blocks = fixes.map((f, i) => {
    const verify = f.verify
      ? `<p>Then check: </p><div class="command"><pre id="group-verify-${i}"><code>${esc(f.verify)}</code></pre><button type="button" data-copy="group-verify-${i}" hidden>Copy</button></div>`
      : '';
    return `<section class="fix" id="group-fix-${i}" aria-labelledby="group-fix-h-${i}"><h3 id="group-fix-h-${i}">For ${esc(f.members.join(', '))}</h3>
<div class="command"><pre id="group-fix-cmd-${i}"><code>${esc(f.fix)}</code></pre><button type="button" data-copy="group-fix-cmd-${i}" hidden>Copy</button></div>
${verify}</section>`;
  });
  return `<h2>Fixes</h2>\n${blocks.join('\n')}`;
}

function renderReport(report: PageReport, index: number, many: boolean): string {
  const d = report.diagnosis;
  const id = `report-${index}`;
  const label = report.label ? `<p class="kicker">${esc(report.label)}</p>` : '';
  const wrapOpen = many
    ? `<section id="${id}" aria-label="${esc(report.label ?? `log ${index + 1}`)}"><h2>${esc(report.label ?? `Log ${index + 1}`)}</h2>`
    : `<section id="${id}">`;
  const outcome = report.outcome
    ? `<p class="${report.outcome.failed ? 'warning' : 'kicker'}">${esc(report.outcome.summary)}</p>`
    : '';
  // No log, or a log that shows nothing wrong of a member that failed all the same (killed from outside).
  if (d === null || (d.verdict === 'no-failure' && report.outcome?.failed === true)) {
    const bad = failedOf(report);
    return `${wrapOpen}
<header class="verdict${bad ? '' : ' ok'}">${many ? '' : label}<p class="kicker">Vigil diagnosis</p>
<h1><span class="mark">${bad ? '✖' : '✔'}</span> ${esc(report.outcome?.summary ?? 'no log was read')}</h1></header>
</section>`;
  }
  const engine = d.engine ? ` · ${esc(d.engine)}` : '';
  if (d.verdict === 'no-failure') {
    return `${wrapOpen}
<header class="verdict ok">${many ? '' : label}<p class="kicker">Vigil diagnosis${engine}</p>
<h1><span class="mark">✔</span> No failure found in ${d.input.lines} lines</h1>
${d.noiseSuppressed > 0 ? `<p>${d.noiseSuppressed} alarming but harmless lines ignored.</p>` : ''}</header>
${renderWarnings(d)}
${report.timeline ? renderTimeline(report.timeline, new Set()) : ''}
</section>`;
  }
  const rc = d.rootCause;
  const signature = d.signature
    ? `<p class="title">${esc(d.signature.title)} <span class="tag">${esc(d.signature.category)}</span> <span class="tag">${esc(d.signature.id)}</span></p>`
    : '';
  return `${wrapOpen}
<header class="verdict">${many ? '' : label}<p class="kicker">Vigil diagnosis${engine}</p>
<h1><span class="mark">✖</span> <span class="log">${esc(headline(d))}</span></h1>
${signature}${outcome}</header>
${report.groupFix === undefined ? renderFix(d, index) : renderFixAbove(report.groupFix, index)}
${renderFacts(d)}
${renderMeaning(d)}
${report.timeline ? renderTimeline(report.timeline, new Set(rc?.processes ?? [])) : ''}
${renderGroups(d)}
${renderEvidence(d)}
${renderSymptoms(d)}
${renderWarnings(d)}
</section>`;
}

function renderFix(d: Diagnosis, index: number): string {
  if (!d.signature) {
    return `<section class="fix" aria-labelledby="fix-h-${index}"><h2 id="fix-h-${index}">Fix</h2><p>No known signature matches: search the engine's issues for the root-cause message above.</p></section>`;
  }
  const s = d.signature;
  const alternative = s.alternative ? `<p>Alternatively: ${esc(s.alternative)}</p>` : '';
  return `<section class="fix" aria-labelledby="fix-h-${index}"><h2 id="fix-h-${index}">Fix</h2>
<div class="command"><pre id="fix-${index}"><code>${esc(s.fix)}</code></pre><button type="button" data-copy="fix-${index}" hidden>Copy</button></div>
${alternative}</section>`;
}

/** A fleet member whose fix its cause group gives once, above. */
function renderFixAbove(groupFix: number, index: number): string {
  return `<section class="fix" aria-labelledby="fix-h-${index}"><h2 id="fix-h-${index}">Fix</h2><p>Given once for the members that share it: <a href="#group-fix-${groupFix}">the fix above</a>.</p></section>`;
}

function renderMeaning(d: Diagnosis): string {
  const s = d.signature;
  if (!s) return '';
  const references = s.references?.length
    ? `<p class="kicker">References: ${s.references.map(renderLink).join(', ')}</p>`
    : '';
  return `<section aria-labelledby="meaning-h"><h2 id="meaning-h">What it means</h2><p>${esc(s.explanation)}</p>${references}</section>`;
}

function renderFacts(d: Diagnosis): string {
  const rows: string[] = [];
  const rc = d.rootCause;
  if (rc) {
    const who = describeProcesses(rc.processes, d.processes);
    rows.push(row('Where', `${who ? `${esc(who)}, ` : ''}line ${rc.lineNumber}`));
    if (rc.raiseSite)
      rows.push(row('Raised at', `<code class="site">${esc(formatSite(rc.raiseSite))}</code>`));
    if (rc.crashSite)
      rows.push(row('Crashed in', `<code class="site">${esc(formatSite(rc.crashSite))}</code>`));
  }
  if (d.service) {
    const s = d.service;
    rows.push(
      row(
        'Service',
        `${esc(s.unit ?? 'unit')}: ${s.starts} starts, ${s.failedStarts} failed${s.restartLoop ? ', <strong>restart loop</strong>' : ''}${s.lastExit ? `; last exit ${esc(s.lastExit)}` : ''}`,
      ),
    );
  }
  if (d.engine)
    rows.push(row('Engine', esc(d.engineVersion === null ? d.engine : `${d.engine} ${d.engineVersion}`)));
  if (rows.length === 0) return '';
  const message =
    rc && rc.message.includes('\n') ? `<pre class="log">${esc(clip(rc.message, 4 * MAX_LINE))}</pre>` : '';
  return `<section aria-label="Where"><dl class="facts">${rows.join('')}</dl>${message}</section>`;
}

const row = (label: string, html: string): string => `<dt>${label}</dt><dd>${html}</dd>`;

function renderGroups(d: Diagnosis): string {
  if (d.groups.length === 0) return '';
  const items = d.groups.map((g) => {
    const who = describeProcesses(g.processes, d.processes) || 'no process named';
    const times = g.count === 1 ? 'once' : `${g.count} times`;
    return `<li><code class="log">${esc(clip(`${g.exception ? `${g.exception}: ` : ''}${firstLine(g.message)}`, 400))}</code><p class="kicker">${esc(who)}; ${times}, first at line ${g.firstLineNumber}</p></li>`;
  });
  return `<section aria-labelledby="groups-h"><h2 id="groups-h">Errors by process</h2><ul class="groups">${items.join('')}</ul></section>`;
}

function renderEvidence(d: Diagnosis): string {
  if (d.evidence.length === 0) return '';
  const items = d.evidence.map(
    (e) =>
      `<li><span class="n">${e.lineNumber}</span><code class="log">${esc(clip(e.text, MAX_LINE))}</code></li>`,
  );
  return `<details><summary>Evidence: ${d.evidence.length} lines of the log</summary><ol class="lines">${items.join('')}</ol></details>`;
}

function renderSymptoms(d: Diagnosis): string {
  if (d.symptoms.length === 0) return '';
  const items = d.symptoms.map(
    (s) =>
      `<li><span class="n">${s.firstLineNumber}</span><code class="log">${esc(clip(`${s.exception ? `${s.exception}: ` : ''}${firstLine(s.message)}`, 400))}</code></li>`,
  );
  return `<details><summary>Pointed elsewhere, not the cause: ${d.symptoms.length}</summary><ol class="lines">${items.join('')}</ol></details>`;
}

function renderWarnings(d: Diagnosis): string {
  if (d.warnings.length === 0) return '';
  return d.warnings.map((w) => `<p class="warning">Warning: ${esc(w)}</p>`).join('\n');
}

function renderFindings(findings: readonly Finding[]): string {
  if (findings.length === 0)
    return `<section><h2>Environment</h2><p>The pre-flight check found nothing.</p></section>`;
  const items = sortFindings(findings).map(
    (
      f,
      i,
    ) => `<h3><span class="sev-${f.severity}">${f.severity}</span> ${esc(f.title)} <span class="tag">${esc(f.id)}</span></h3>
<p>${esc(f.detail)}</p>${f.fix ? `<div class="command"><pre id="check-fix-${i}"><code>${esc(f.fix)}</code></pre><button type="button" data-copy="check-fix-${i}" hidden>Copy</button></div>` : ''}`,
  );
  return `<section aria-labelledby="env-h"><h2 id="env-h">Environment (pre-flight check)</h2>${items.join('\n')}</section>`;
}

function renderFooter(page: IncidentPage): string {
  const lines = page.reports.reduce((n, r) => n + (r.diagnosis?.input.lines ?? 0), 0);
  const when = page.generatedAt ? ` on ${esc(page.generatedAt)}` : '';
  return `<footer>Written by Vigil ${esc(page.vigilVersion)}${when}; ${lines} lines read. ${page.redacted ? 'Tokens and passwords from the log are redacted.' : 'Not redacted: tokens and passwords appear as the log holds them.'}</footer>`;
}

/** A link only to a web address: a rule's reference could say `javascript:` and must stay text. */
function renderLink(url: string): string {
  return /^https?:\/\/[^\s"'<>]+$/.test(url)
    ? `<a href="${esc(url)}" rel="noreferrer noopener">${esc(url)}</a>`
    : esc(url);
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
