// `--output x.html`: the web report page (src/web/views/report.ts), made one self-contained file: the
// stylesheets inlined, the icon a data: URL, no script, and nothing of the site around it (its
// navigation, its links to the server's pages). Several URLs: one document, each report in turn with
// its element ids prefixed, so the links inside each report go to its own sections.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ASSETS_DIRECTORY, assetUrl } from '../../web/assets.ts';
import { escapeHtml } from '../../web/html.ts';
import { reportPage } from '../../web/views/report.ts';
import { verdictReason } from '../../scoring/score.ts';
import type { Report } from '../../services/types.ts';
import type { UrlOutcome } from '../url-outcome.ts';

const MAIN_START = '<main id="main" class="container" tabindex="-1">';
const MAIN_END = '</main>';

/** A report as the page shows it: a run with this analysis, or (not analysed) a failed first analysis. */
function asReport(outcome: UrlOutcome): Report {
  const generatedAt = 'analysis' in outcome ? outcome.analysis.generatedAt.toISOString() : new Date().toISOString();
  const common = {
    id: 0,
    organization: 0,
    url: outcome.url,
    project: URL.canParse(outcome.url) ? new URL(outcome.url).host : outcome.url,
    privacy: 0 as const,
    password: false,
    runs_count: 'analysis' in outcome ? 1 : 0,
    schedule: 'off',
    next_run_at: null,
    created_at: generatedAt,
    updated_at: generatedAt,
  };
  if ('error' in outcome) {
    return { ...common, result: null, score: null, issues: null, page: null, results: null, generated_at: null, state: 'failed', last_error: { message: outcome.error } };
  }
  const { result, score, issues, page, results, rendered, lab, structuredData } = outcome.analysis;
  return {
    ...common, result, score, issues, page, results, rendered: rendered ?? null, lab: lab ?? null, structured_data: structuredData ?? null,
    generated_at: generatedAt, state: 'done', last_error: null,
  };
}

/** Replaces what must be there exactly once: a change to the page's layout fails loudly, not silently. */
function replaceOnce(document: string, pattern: string | RegExp, replacement: string): string {
  const found = typeof pattern === 'string' ? document.split(pattern).length - 1 : (document.match(new RegExp(pattern, 'g')) ?? []).length;
  if (found !== 1) throw new Error(`the report page's layout changed: ${String(pattern)} found ${found} times`);
  return document.replace(pattern, () => replacement);
}

/**
 * A stylesheet as the file holds it: without its comments, which speak of the server (its URLs, the
 * API's parameters) and are no use to a reader of the file.
 */
export function inlinedStylesheet(name: string): string {
  return readFileSync(join(ASSETS_DIRECTORY, name), 'utf8').replace(/\/\*[\s\S]*?\*\/\n?/g, '');
}

function selfContained(document: string): string {
  const css = inlinedStylesheet('app.css');
  const icon = readFileSync(join(ASSETS_DIRECTORY, 'favicon.svg'), 'utf8');
  let page = replaceOnce(document, `<link rel="stylesheet" href="${assetUrl('app.css')}">`, `<style>\n${css.replaceAll('</', '<\\/')}</style>`);
  const print = inlinedStylesheet('print.css');
  page = replaceOnce(page, `<link rel="stylesheet" href="${assetUrl('print.css')}" media="print">`, `<style media="print">\n${print.replaceAll('</', '<\\/')}</style>`);
  page = replaceOnce(page, `href="${assetUrl('favicon.svg')}"`, `href="${escapeHtml(`data:image/svg+xml,${encodeURIComponent(icon)}`)}"`);
  page = replaceOnce(page, /<nav class="site-nav"[\s\S]*?<\/nav>/, '');
  page = replaceOnce(page, /<footer class="site-footer">[\s\S]*?<\/footer>/, '<footer class="site-footer">\n  <div class="container">Made with pagegrade analyze.</div>\n</footer>');
  // Links to the server's own pages lead nowhere from a file: what is left of them is their text.
  return page.replace(/ href="\/(?!\/)[^"]*"/g, '');
}

/** The report inside <main>, its ids (and the links and labels that name them) prefixed. */
function mainOf(document: string, prefix: string): string {
  const start = document.indexOf(MAIN_START);
  if (start === -1) throw new Error(`the report page's layout changed: no ${MAIN_START}`);
  const inner = document.slice(start + MAIN_START.length, document.lastIndexOf(MAIN_END));
  return inner.replace(/ (id|aria-labelledby)="([^"]*)"/g, ` $1="${prefix}$2"`).replace(/ href="#([^"]*)"/g, ` href="#${prefix}$1"`);
}

const VERDICT = /<p class="verdict verdict--\w+">[\s\S]*?<\/p>/;

/**
 * Why the grade is not the one the score gives (an error status, noindex), under the verdict, as the
 * text report says it; left alone when the report page already says it.
 */
function withVerdictReason(page: string, outcome: UrlOutcome): string {
  const reason = 'analysis' in outcome ? verdictReason(outcome.analysis.results) : null;
  if (reason === null || page.includes(escapeHtml(reason))) return page;
  const verdict = page.match(VERDICT)?.[0] ?? '';
  return replaceOnce(page, VERDICT, `${verdict}\n    <p class="verdict-reason">${escapeHtml(reason)}</p>`);
}

export function renderHtml(outcomes: readonly UrlOutcome[]): string {
  const pages = outcomes.map((outcome) =>
    withVerdictReason(reportPage({ report: asReport(outcome), asOwner: false, signedIn: false }).toString(), outcome),
  );
  if (pages.length === 1) return selfContained(pages[0]);
  const reports = pages.map((page, index) => mainOf(page, `report-${index + 1}-`)).join('\n<hr class="report-separator">\n');
  const title = `SEO reports for ${outcomes.length} pages · pagegrade`;
  let combined = replaceOnce(pages[0], /<title>[^<]*<\/title>/, `<title>${escapeHtml(title)}</title>`);
  combined = replaceOnce(combined, /<meta name="description" content="[^"]*">/, `<meta name="description" content="${escapeHtml(`SEO reports for ${outcomes.map((outcome) => outcome.url).join(', ')}`)}">`);
  combined = `${combined.slice(0, combined.indexOf(MAIN_START) + MAIN_START.length)}\n${reports}\n${combined.slice(combined.lastIndexOf(MAIN_END))}`;
  return selfContained(combined);
}
