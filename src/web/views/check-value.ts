// What a check measured and what it found wrong, compactly and in words: field names become the
// check's labels (CheckDefinition.labels), text stays text, numbers are formatted, small objects are
// term/value lists, long lists fold away behind their count, and everything is capped so one page
// cannot flood the report.
import type { CheckErrors } from '../../checks/check.ts';
import { html, type SafeHtml } from '../html.ts';
import { formatNumber, humanise, plural } from './format.ts';

export type Labels = Readonly<Record<string, string>>;

const MAX_TEXT = 300;
const MAX_LIST_ITEMS = 10;
const MAX_ERROR_ITEMS = 25;
/** On paper (print.css) a group of findings shows this many: examples to act on, not every element. */
const PAPER_ERROR_ITEMS = 10;
/** Lists longer than this are folded into a <details> that says how many items it holds. */
const FOLD_AFTER = 5;
/** Deeper structures are shown as JSON text: rare, and a nested list of lists helps nobody. */
const MAX_DEPTH = 2;
const NO_LABELS: Labels = {};
/** Every located item carries these (checks/locate.ts), whichever check found it. */
const LOCATION_LABELS: Labels = { line: 'Line', snippet: 'Tag' };

/** The words for a field name: the check's label, else (a key that is data: a tag, header or crawler name) the key made readable. */
function labelFor(key: string, labels: Labels): string {
  return labels[key] ?? LOCATION_LABELS[key] ?? humanise(key);
}

/** The text cut to `max` characters, an ellipsis in place of the rest. */
export function clip(text: string, max = MAX_TEXT): string {
  const characters = [...text];
  return characters.length > max ? `${characters.slice(0, max - 1).join('')}…` : text;
}

/** The last item of a capped list: how many were left out. `screenOnly`: paper says it its own way (moreOnPaper). */
export function more(total: number, shown: number, screenOnly = false): SafeHtml | '' {
  return total > shown ? html`<li class="more${screenOnly ? ' screen-only' : ''}">… and ${formatNumber(total - shown)} more</li>` : '';
}

/** A list, folded behind "N items" when it is long, so a report reads as a document rather than a dump. */
function folded(count: number, list: SafeHtml): SafeHtml {
  return count > FOLD_AFTER ? html`<details class="long-list"><summary>${plural(count, 'item')}</summary>${list}</details>` : list;
}

const none = html`<span class="none">none</span>`;

function isScalar(value: unknown): boolean {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

/** An array or object of plain values: small enough to read on one line. */
function isFlat(value: unknown): value is unknown[] | Record<string, unknown> {
  return value !== null && typeof value === 'object' && Object.values(value).every(isScalar);
}

/** "a, b, c" or "Status code: 301, Redirects to: /b", capped like the lists. Keys without a label are data (h1, script) and stay as they are. */
function inline(value: unknown[] | Record<string, unknown>, labels: Labels): SafeHtml {
  const entries = Array.isArray(value) ? value.map((item) => [null, item] as const) : Object.entries(value);
  if (entries.length === 0) return none;
  const shown = entries.slice(0, MAX_LIST_ITEMS).map(([key, item], index) =>
    html`${index > 0 ? ', ' : ''}${key === null ? '' : html`${labels[key] ?? key}: `}${renderValue(item, labels, MAX_DEPTH)}`,
  );
  const rest = entries.length - Math.min(entries.length, MAX_LIST_ITEMS);
  return html`${shown}${rest > 0 ? html` <span class="none">and ${formatNumber(rest)} more</span>` : ''}`;
}

export function renderValue(value: unknown, labels: Labels = NO_LABELS, depth = 0): SafeHtml {
  if (value === null || value === undefined) return none;
  if (typeof value === 'boolean') return html`${value ? 'yes' : 'no'}`;
  if (typeof value === 'number') return html`${formatNumber(value)}`;
  if (typeof value === 'string') return value === '' ? html`<span class="none">empty</span>` : html`${clip(value)}`;
  if (depth >= MAX_DEPTH) return html`<code>${clip(JSON.stringify(value) ?? '')}</code>`;
  if (depth > 0 && isFlat(value)) return inline(value, labels);
  if (Array.isArray(value)) {
    if (value.length === 0) return none;
    const shown = value.slice(0, MAX_LIST_ITEMS);
    return folded(
      value.length,
      html`<ul class="value-list">${shown.map((item) => html`<li>${renderValue(item, labels, depth + 1)}</li>`)}${more(value.length, shown.length)}</ul>`,
    );
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) return none;
    return html`<dl class="value-pairs">${entries.map(
      ([key, item]) => html`<div><dt>${depth === 0 ? labelFor(key, labels) : (labels[key] ?? key)}</dt><dd>${renderValue(item, labels, depth + 1)}</dd></div>`,
    )}</dl>`;
  }
  return html`${clip(String(value))}`;
}

function itemText(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
}

/**
 * One offending item: strings (URLs, tags, addresses) as code; objects as labelled pairs, a located
 * element as its tag and line, so a person can find it in the page's source.
 */
function renderItem(item: unknown, labels: Labels): SafeHtml {
  if (typeof item === 'string') return item === '' ? html`<span class="none">(empty)</span>` : html`<code>${clip(item)}</code>`;
  if (item !== null && typeof item === 'object' && !Array.isArray(item)) {
    const { snippet, line, ...rest } = item as Record<string, unknown>;
    const located = typeof snippet === 'string' && typeof line === 'number';
    const pairs = Object.entries(located ? rest : item).map(
      ([key, value]) => html`<span class="pair">${labelFor(key, labels)}: <code>${clip(itemText(value))}</code></span>`,
    );
    const where = located ? html`<span class="pair"><code>${clip(snippet)}</code> <span class="item-line">line ${formatNumber(line)}</span></span>` : '';
    return html`${pairs}${where}`;
  }
  return html`<code>${clip(JSON.stringify(item) ?? String(item))}</code>`;
}

/** What a paper copy says in place of the findings past PAPER_ERROR_ITEMS (the screen's "more" is hidden there). */
function moreOnPaper(total: number): SafeHtml | '' {
  return total > PAPER_ERROR_ITEMS ? html`<li class="more print-only">… and ${formatNumber(total - PAPER_ERROR_ITEMS)} more in the report online</li>` : '';
}

export function renderErrors(errors: CheckErrors, labels: Labels = NO_LABELS): SafeHtml {
  return html`${Object.entries(errors).map(([kind, items]) => {
    const shown = items.slice(0, MAX_ERROR_ITEMS);
    const paperCut = items.length > PAPER_ERROR_ITEMS;
    const list = html`<ul class="offending-items">${shown.map(
      (item, index) => html`<li${index >= PAPER_ERROR_ITEMS ? html` class="screen-only"` : ''}>${renderItem(item, labels)}</li>`,
    )}${more(items.length, shown.length, paperCut)}${moreOnPaper(items.length)}</ul>`;
    return html`<div class="offending">
  <p class="offending-kind">${labelFor(kind, labels)} <span class="offending-count">(${formatNumber(items.length)})</span></p>
  ${folded(items.length, list)}
</div>`;
  })}`;
}
