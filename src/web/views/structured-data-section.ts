// The report page's "Structured data" section (docs/structured-data.md), under the Miscellaneous
// checks: first what an SEO person asks ("Eligible for: …", "Blocked: Merchant listings — offers.price:
// …", the retired features), then each rich-result entry as a card marked valid, invalid or retired
// with its errors and warnings (property path, message, line, the offending value), and the items
// found. Plain HTML: warnings and a long list of items fold behind <details> on screen and open on
// paper (print.css). Everything in the field came from the analysed page (types, values) and is
// escaped by the html template.
import { MAX_LISTED_ENTRIES, MAX_LISTED_FINDINGS, MAX_LISTED_ITEMS } from '../../structured/structured-data-report.ts';
import type { StructuredDataReport, StructuredFormat } from '../../structured/structured-types.ts';
import { html, type SafeHtml } from '../html.ts';
import { clip } from './check-value.ts';
import { formatNumber, plural } from './format.ts';

type Entry = StructuredDataReport['rich_results'][number];
type Finding = Entry['errors'][number];

export interface StructuredDataSectionOptions {
  /** The report has the `structured_data_valid` check: its schema.org findings are linked there. */
  linkValidationCheck?: boolean;
}

const FORMAT_NAMES: Record<StructuredFormat, string> = { 'json-ld': 'JSON-LD', microdata: 'Microdata', rdfa: 'RDFa Lite' };
/** A format stored by a later version stays as written. */
const formatName = (format: StructuredFormat): string => FORMAT_NAMES[format] ?? format;
/** More items than this fold behind their count: the entries above say what matters. */
const ITEMS_SHOWN_OPEN = 10;

const dayFormat = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'long', year: 'numeric' });

/** "2026-05-07" -> <time>7 May 2026</time>; a date that does not parse stays as written. */
function dateElement(day: string): SafeHtml {
  const parsed = new Date(`${day}T00:00:00Z`);
  return html`<time datetime="${day}">${Number.isNaN(parsed.getTime()) ? day : dayFormat.format(parsed)}</time>`;
}

function entryState(entry: Entry): 'valid' | 'invalid' | 'retired' {
  if (entry.retired !== null || entry.valid === null) return 'retired';
  return entry.valid ? 'valid' : 'invalid';
}

/** Each feature once, in the order the page first gives it. */
function featuresOf(entries: readonly Entry[]): string[] {
  return [...new Set(entries.map((entry) => entry.feature))];
}

/** "offers.price: The offer's price must be a number… (line 21)" */
function findingLine(finding: Finding): SafeHtml {
  return html`<code>${finding.property}</code>: ${finding.message} <span class="item-line">line ${formatNumber(finding.line)}</span>`;
}

/** The lines at the top: eligible features, each blocked feature with its first error, the retired ones. */
function verdicts(entries: readonly Entry[]): SafeHtml {
  const eligible = featuresOf(entries.filter((entry) => entryState(entry) === 'valid'));
  const invalid = entries.filter((entry) => entryState(entry) === 'invalid');
  const retired = entries.filter((entry) => entryState(entry) === 'retired');
  if (eligible.length + invalid.length + retired.length === 0) {
    return html`<p class="structured-none">No item is of a Google rich-result type: the page's structured data gives it no rich result.</p>`;
  }
  const blocked = featuresOf(invalid).map((feature) => {
    const errors = invalid.filter((entry) => entry.feature === feature).flatMap((entry) => entry.errors);
    const rest = errors.length - 1;
    return html`<li class="structured-blocked"><strong>Blocked:</strong> ${feature}${errors.length > 0 ? html` — ${findingLine(errors[0])}` : ''}${rest > 0 ? html` <span class="offending-count">and ${plural(rest, 'more error')}</span>` : ''}</li>`;
  });
  const retiredFeatures = featuresOf(retired).map((feature) => {
    const day = retired.find((entry) => entry.feature === feature)?.retired;
    return html`${feature}${day ? html` (${dateElement(day)})` : ''}`;
  });
  return html`<ul class="structured-summary">
  ${eligible.length > 0 ? html`<li class="structured-eligible"><strong>Eligible for:</strong> ${eligible.join(', ')}</li>` : ''}
  ${blocked}
  ${retiredFeatures.length > 0 ? html`<li class="structured-retired"><strong>Retired by Google:</strong> ${retiredFeatures.map((feature, index) => html`${index > 0 ? ', ' : ''}${feature}`)} — the markup stays valid schema.org, but Google no longer shows it.</li>` : ''}
</ul>`;
}

function findingItem(finding: Finding): SafeHtml {
  const value = finding.value === undefined ? '' : html` <span class="pair">Value: <code>${clip(finding.value, 100)}</code></span>`;
  return html`<li>${findingLine(finding)}${value}</li>`;
}

function findingList(findings: readonly Finding[]): SafeHtml {
  return html`<ul class="offending-items">${findings.map(findingItem)}</ul>`;
}

const STATE_BADGES = {
  valid: html`<span class="status status--passed"><span aria-hidden="true">✓</span> Valid</span>`,
  invalid: html`<span class="status status--failed"><span aria-hidden="true">✗</span> Invalid</span>`,
  retired: html`<span class="status status--not-applicable"><span aria-hidden="true">–</span> Retired</span>`,
};

/** One item judged for one feature: its errors open, its warnings folded (opened on paper). */
function entryCard(entry: Entry): SafeHtml {
  const state = entryState(entry);
  const retiredNote = entry.retired === null ? '' : html`<p class="rich-result-note">Google retired this rich result on ${dateElement(entry.retired)}.</p>`;
  const errors = entry.errors.length === 0
    ? ''
    : html`<div class="offending"><p class="offending-kind">Errors <span class="offending-count">(${formatNumber(entry.errors.length)})</span></p>${findingList(entry.errors)}</div>`;
  const warnings = entry.warnings.length === 0
    ? ''
    : html`<details class="rich-result-warnings"><summary>${plural(entry.warnings.length, 'warning')}<span class="visually-hidden">: ${entry.feature}, line ${formatNumber(entry.line)}</span></summary>${findingList(entry.warnings)}</details>`;
  return html`<li class="rich-result rich-result--${state}">
  <p class="check-badges">${STATE_BADGES[state]}</p>
  <h4 class="rich-result-title">${entry.feature} <span class="rich-result-item"><code>${entry.type}</code> <span class="item-line">line ${formatNumber(entry.line)}</span></span></h4>
  ${retiredNote}${errors}${warnings}
</li>`;
}

function itemsTable(items: StructuredDataReport['items']): SafeHtml {
  const formats = [...new Set(items.map((item) => formatName(item.format)))].join(', ');
  const table = html`<div class="table-wrap"><table class="list-table structured-items-table">
  <caption class="visually-hidden">The structured data items of the page, in document order</caption>
  <thead><tr><th scope="col">Type</th><th scope="col">Format</th><th scope="col">Line</th></tr></thead>
  <tbody>${items.map((item) => html`<tr>
    <td data-label="Type"><code>${item.type}</code></td>
    <td data-label="Format">${formatName(item.format)}</td>
    <td data-label="Line">${formatNumber(item.line)}</td>
  </tr>`)}</tbody>
</table></div>`;
  const heading = html`${plural(items.length, 'item')} found (${formats})`;
  const capped = items.length >= MAX_LISTED_ITEMS ? html`<p class="muted">The first ${formatNumber(MAX_LISTED_ITEMS)} items are listed and judged.</p>` : '';
  if (items.length <= ITEMS_SHOWN_OPEN) return html`<h3>Items</h3><p>${heading}.</p>${table}${capped}`;
  return html`<h3>Items</h3><details class="structured-items"><summary>${heading}</summary>${table}</details>${capped}`;
}

function countsLine(data: StructuredDataReport): string {
  return `${plural(data.errors, 'rich-result error')} · ${plural(data.warnings, 'warning')} · ${plural(data.validation_errors, 'schema.org error')}`;
}

function validationNote(data: StructuredDataReport, link: boolean): SafeHtml {
  if (data.validation_errors === 0) return html`<p class="structured-validation">Types, properties and values are valid schema.org ${data.schema_org_version}.</p>`;
  const where = link ? html`: see <a href="#check-structured_data_valid">the schema.org validation check</a>` : '';
  return html`<p class="structured-validation">${plural(data.validation_errors, 'schema.org error')} (syntax, unknown types or properties, values of the wrong kind)${where}.</p>`;
}

/** Nothing at all when the page has no structured data. */
export function structuredDataSection(data: StructuredDataReport | null | undefined, { linkValidationCheck = false }: StructuredDataSectionOptions = {}): SafeHtml | '' {
  if (!data) return '';
  const entries = data.rich_results;
  const listed = entries.reduce((sum, entry) => sum + entry.errors.length + entry.warnings.length, 0);
  const cut = entries.length >= MAX_LISTED_ENTRIES || listed < data.errors + data.warnings
    ? html`<p class="muted">Only part of the findings is listed (at most ${formatNumber(MAX_LISTED_ENTRIES)} entries, and ${formatNumber(MAX_LISTED_FINDINGS)} errors and ${formatNumber(MAX_LISTED_FINDINGS)} warnings an entry); the counts above count them all.</p>`
    : '';
  const richResults = entries.length === 0
    ? ''
    : html`<h3>Google rich results</h3>
  <ol class="rich-results">${entries.map(entryCard)}</ol>
  ${cut}`;
  return html`<section class="structured-data" id="structured-data" aria-labelledby="structured-data-heading">
  <h2 id="structured-data-heading">Structured data</h2>
  <p class="category-counts">${countsLine(data)} · checked against schema.org ${data.schema_org_version} and Google's rich-result documentation</p>
  ${data.items.length === 0 ? html`<p class="structured-none">No structured data item could be read from the page.</p>` : verdicts(entries)}
  ${validationNote(data, linkValidationCheck)}
  ${richResults}
  ${data.items.length === 0 ? '' : itemsTable(data.items)}
</section>`;
}
