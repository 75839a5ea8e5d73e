// `analyze --render`: what JavaScript changed, under the report, one line per thing compared.
import { comparisonRows, renderFailed, type Rendered } from '../render/compare-rendered.ts';
import { displayWidth, printable, truncate, type Style } from './terminal-text.ts';

const VALUE_CHARS = 40;
const LABEL_WIDTH = 17;

export function renderRenderedText(rendered: Rendered | undefined, style: Style): string {
  if (rendered === undefined) return '';
  const heading = style.bold('Raw HTML against the page after JavaScript');
  if (renderFailed(rendered)) return `\n${heading}\n  ${style.yellow(`Not rendered: ${printable(rendered.error)}`)}\n`;
  const rows = comparisonRows(rendered);
  const raws = rows.map((row) => truncate(printable(row.raw), VALUE_CHARS));
  const rawWidth = Math.max(...raws.map(displayWidth));
  const lines = rows.map((row, index) => {
    const label = row.label.padEnd(LABEL_WIDTH);
    if (!row.changed) return `  ${style.dim('=')} ${label}${raws[index]}`;
    const raw = raws[index] + ' '.repeat(rawWidth - displayWidth(raws[index]));
    return `  ${style.yellow('≠')} ${label}${raw}  ${style.dim('→')}  ${truncate(printable(row.rendered), VALUE_CHARS)}`;
  });
  const onlyRendered = rendered.links.only_rendered.slice(0, 5).map((url) => `      ${style.dim(truncate(printable(url), 90))}`);
  if (onlyRendered.length > 0) lines.push(`    links only after JavaScript:`, ...onlyRendered);
  const changed = rows.filter((row) => row.changed).length;
  return `\n${heading} (${changed === 0 ? 'nothing changed' : `${changed} of ${rows.length} changed`})\n${lines.join('\n')}\n`;
}
