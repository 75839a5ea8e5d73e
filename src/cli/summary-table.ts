// The table after a run over several URLs: one row per URL with its score, verdict and issue
// counts, or the reason it could not be analysed; then the totals.
import type { UrlOutcome } from './url-outcome.ts';
import { verdictColour } from './report-text.ts';
import { displayWidth, printable, truncate, type Style } from './terminal-text.ts';

/** Longer URLs are cut so the numbers stay on the row. */
const MAX_URL_WIDTH = 60;
const NUMBER_COLUMNS = ['Score', 'Verdict', 'High', 'Medium', 'Low'] as const;

function padEnd(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - displayWidth(text)));
}

function padStart(text: string, width: number): string {
  return ' '.repeat(Math.max(0, width - displayWidth(text))) + text;
}

export function renderSummaryTable(outcomes: readonly UrlOutcome[], style: Style): string {
  const urls = outcomes.map((outcome) => truncate(printable(outcome.url), MAX_URL_WIDTH));
  const urlWidth = Math.max(3, ...urls.map(displayWidth));
  const [score, verdict, high, medium, low] = NUMBER_COLUMNS.map((name) => name.length);
  const lines = [style.bold(`${padEnd('URL', urlWidth)}  ${NUMBER_COLUMNS.join('  ')}`)];
  const totals = { good: 0, decent: 0, bad: 0, failed: 0 };

  outcomes.forEach((outcome, index) => {
    const url = padEnd(urls[index], urlWidth);
    if ('error' in outcome) {
      totals.failed += 1;
      lines.push(`${url}  ${style.red('not analysed:')} ${printable(outcome.error)}`);
      return;
    }
    const { analysis } = outcome;
    totals[analysis.result] += 1;
    // Padded before colouring: escape codes take no room on screen.
    const cells = [
      padStart(String(analysis.score), score),
      verdictColour(analysis.result, style)(padEnd(analysis.result, verdict)),
      padStart(String(analysis.issues.high), high),
      padStart(String(analysis.issues.medium), medium),
      padStart(String(analysis.issues.low), low),
    ];
    lines.push(`${url}  ${cells.join('  ')}`);
  });

  const counted = `${totals.good} good, ${totals.decent} decent, ${totals.bad} bad, ${totals.failed} not analysed`;
  lines.push('', `${outcomes.length} URLs: ${counted}`);
  return `${lines.join('\n')}\n`;
}
