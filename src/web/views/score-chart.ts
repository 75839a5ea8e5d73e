// The score over time: a small line chart drawn on the server as inline SVG (no chart library, no
// script), so it prints and works without JavaScript. Colours come from the stylesheet by class, and
// only presentation attributes are used: the Content-Security-Policy refuses style attributes.
// The chart is one image to assistive technology (role="img" with a title and a description that
// lists every value); its points link to each run for a pointer, and the run list beside the chart
// is how keyboard and screen-reader users open a run, so the links are kept out of the tab order.
import type { RunSummary } from '../../services/types.ts';
import { html, type SafeHtml } from '../html.ts';
import { VERDICT_NAMES } from './format.ts';
import { runName } from './run-list.ts';

/** The most runs drawn: more points than this would crowd a chart this wide. */
export const CHART_RUNS = 30;

const WIDTH = 640;
const HEIGHT = 220;
const PLOT = { left: 44, right: 24, top: 14, bottom: 44 };
const PLOT_WIDTH = WIDTH - PLOT.left - PLOT.right;
const PLOT_HEIGHT = HEIGHT - PLOT.top - PLOT.bottom;
const SCORE_TICKS = [0, 25, 50, 75, 100];
/** At most this many run numbers under the axis, so "123" labels never overlap. */
const MAX_X_LABELS = 8;

const shortDate = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric' });

function y(score: number): number {
  return round(PLOT.top + ((100 - Math.max(0, Math.min(100, score))) / 100) * PLOT_HEIGHT);
}

function x(index: number, count: number): number {
  return round(count === 1 ? PLOT.left + PLOT_WIDTH / 2 : PLOT.left + (index / (count - 1)) * PLOT_WIDTH);
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

/** Which points get a run label: the first, the last, and evenly spaced ones between. */
function labelled(count: number): Set<number> {
  const step = Math.max(1, Math.ceil((count - 1) / (MAX_X_LABELS - 1)));
  const indexes = new Set<number>([count - 1]);
  // One closer than half a step to the last label would overlap it.
  for (let index = 0; index < count - 1 && count - 1 - index >= step / 2; index += step) indexes.add(index);
  indexes.add(0);
  return indexes;
}

function runLabel(run: Pick<RunSummary, 'id' | 'number' | 'score' | 'result' | 'generated_at'>): string {
  return `${runName(run)}, ${shortDate.format(new Date(run.generated_at))}: ${run.score} (${VERDICT_NAMES[run.result]})`;
}

export interface ScoreChartOptions {
  reportId: number;
  /** Oldest first; only the last CHART_RUNS are drawn. */
  runs: readonly RunSummary[];
}

export function scoreChart({ reportId, runs }: ScoreChartOptions): SafeHtml {
  const shown = runs.slice(-CHART_RUNS);
  const count = shown.length;
  const first = shown[0];
  const last = shown[count - 1];
  const titleId = `score-chart-title-${reportId}`;
  const descId = `score-chart-desc-${reportId}`;
  const points = shown.map((run, index) => `${x(index, count)},${y(run.score)}`).join(' ');
  const labels = labelled(count);
  return html`<figure class="score-chart">
<svg class="score-chart-svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-labelledby="${titleId} ${descId}" preserveAspectRatio="xMidYMid meet">
  <title id="${titleId}">Score of the last ${count} runs, from ${first.score} (run ${first.number}) to ${last.score} (run ${last.number})</title>
  <desc id="${descId}">${shown.map(runLabel).join('; ')}.</desc>
  <g class="score-chart-grid">
    ${SCORE_TICKS.map((tick) => html`<line x1="${PLOT.left}" x2="${WIDTH - PLOT.right}" y1="${y(tick)}" y2="${y(tick)}" stroke-width="1"></line>
    <text class="score-chart-tick" x="${PLOT.left - 8}" y="${y(tick)}" text-anchor="end" dominant-baseline="middle">${tick}</text>`)}
  </g>
  <g class="score-chart-runs">
    ${shown.map((run, index) => (labels.has(index)
      ? html`<text class="score-chart-tick" x="${x(index, count)}" y="${HEIGHT - PLOT.bottom + 18}" text-anchor="middle">${run.number}</text>`
      : ''))}
  </g>
  <text class="score-chart-axis" x="${PLOT.left + PLOT_WIDTH / 2}" y="${HEIGHT - 6}" text-anchor="middle">Run</text>
  <text class="score-chart-axis" x="12" y="${PLOT.top + PLOT_HEIGHT / 2}" text-anchor="middle" transform="rotate(-90 12 ${PLOT.top + PLOT_HEIGHT / 2})">Score</text>
  ${count > 1 ? html`<polyline class="score-chart-line" points="${points}" fill="none" stroke-width="2.5" stroke-linejoin="round"></polyline>` : ''}
  ${shown.map((run, index) => html`<a href="/reports/${reportId}/runs/${run.id}" tabindex="-1" class="score-chart-link">
    <circle class="score-chart-point score-chart-point--${run.result}" cx="${x(index, count)}" cy="${y(run.score)}" r="5.5" stroke-width="2"><title>${runLabel(run)}</title></circle>
  </a>`)}
</svg>
<figcaption class="score-chart-caption">Score out of 100 for runs ${first.number} to ${last.number}, ${shortDate.format(new Date(first.generated_at))} to ${shortDate.format(new Date(last.generated_at))}.</figcaption>
</figure>`;
}
