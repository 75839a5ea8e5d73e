// What a check measured and what it found wrong, compactly: text as text, numbers formatted, small
// objects as term/value lists, arrays as lists, everything capped so one page cannot flood the report.
import type { CheckErrors } from '../../checks/check.ts';
import { html, type SafeHtml } from '../html.ts';
import { formatNumber, humanise } from './format.ts';

const MAX_TEXT = 300;
const MAX_LIST_ITEMS = 10;
const MAX_ERROR_ITEMS = 25;
/** Deeper structures are shown as JSON text: rare, and a nested list of lists helps nobody. */
const MAX_DEPTH = 2;

/** The text cut to `max` characters, an ellipsis in place of the rest. */
export function clip(text: string, max = MAX_TEXT): string {
  const characters = [...text];
  return characters.length > max ? `${characters.slice(0, max - 1).join('')}…` : text;
}

/** The last item of a capped list: how many were left out. */
export function more(total: number, shown: number): SafeHtml | '' {
  return total > shown ? html`<li class="more">… and ${formatNumber(total - shown)} more</li>` : '';
}

const none = html`<span class="none">none</span>`;

function isScalar(value: unknown): boolean {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

/** An array or object of plain values: small enough to read on one line. */
function isFlat(value: unknown): value is unknown[] | Record<string, unknown> {
  return value !== null && typeof value === 'object' && Object.values(value).every(isScalar);
}

/** "a, b, c" or "h1: 2, h2: 0", capped like the lists. Nested keys are data (tag and header names), so they stay as they are. */
function inline(value: unknown[] | Record<string, unknown>): SafeHtml {
  const entries = Array.isArray(value) ? value.map((item) => [null, item] as const) : Object.entries(value);
  if (entries.length === 0) return none;
  const shown = entries.slice(0, MAX_LIST_ITEMS).map(([key, item], index) =>
    html`${index > 0 ? ', ' : ''}${key === null ? '' : html`${key}: `}${renderValue(item, MAX_DEPTH)}`,
  );
  const rest = entries.length - Math.min(entries.length, MAX_LIST_ITEMS);
  return html`${shown}${rest > 0 ? html` <span class="none">and ${formatNumber(rest)} more</span>` : ''}`;
}

export function renderValue(value: unknown, depth = 0): SafeHtml {
  if (value === null || value === undefined) return none;
  if (typeof value === 'boolean') return html`${value ? 'yes' : 'no'}`;
  if (typeof value === 'number') return html`${formatNumber(value)}`;
  if (typeof value === 'string') return value === '' ? html`<span class="none">empty</span>` : html`${clip(value)}`;
  if (depth >= MAX_DEPTH) return html`<code>${clip(JSON.stringify(value) ?? '')}</code>`;
  if (depth > 0 && isFlat(value)) return inline(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return none;
    const shown = value.slice(0, MAX_LIST_ITEMS);
    return html`<ul class="value-list">${shown.map((item) => html`<li>${renderValue(item, depth + 1)}</li>`)}${more(value.length, shown.length)}</ul>`;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) return none;
    return html`<dl class="value-pairs">${entries.map(
      ([key, item]) => html`<div><dt>${depth === 0 ? humanise(key) : key}</dt><dd>${renderValue(item, depth + 1)}</dd></div>`,
    )}</dl>`;
  }
  return html`${clip(String(value))}`;
}

/** One offending item: strings (URLs, tags, addresses) as code; objects as "key: value" pairs. */
function renderItem(item: unknown): SafeHtml {
  if (typeof item === 'string') return item === '' ? html`<span class="none">(empty)</span>` : html`<code>${clip(item)}</code>`;
  if (item !== null && typeof item === 'object' && !Array.isArray(item)) {
    const pairs = Object.entries(item).map(
      ([key, value]) => html`<span class="pair">${humanise(key)}: <code>${clip(typeof value === 'string' ? value : JSON.stringify(value) ?? '')}</code></span>`,
    );
    return html`${pairs}`;
  }
  return html`<code>${clip(JSON.stringify(item) ?? String(item))}</code>`;
}

export function renderErrors(errors: CheckErrors): SafeHtml {
  return html`${Object.entries(errors).map(([kind, items]) => {
    const shown = items.slice(0, MAX_ERROR_ITEMS);
    return html`<div class="offending">
  <p class="offending-kind">${humanise(kind)} <span class="offending-count">(${formatNumber(items.length)})</span></p>
  <ul class="offending-items">${shown.map((item) => html`<li>${renderItem(item)}</li>`)}${more(items.length, shown.length)}</ul>
</div>`;
  })}`;
}
