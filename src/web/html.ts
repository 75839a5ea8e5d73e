// Typed HTML templates without a template engine. `html` escapes every interpolated value unless it
// is SafeHtml, and only `html` (and the helpers here built on it) can make SafeHtml: there is no
// "raw string" escape hatch, so text from an analysed page can only ever reach a page escaped.

let fromMarkup: (markup: string) => SafeHtml;

export class SafeHtml {
  // A private field makes the type nominal: a look-alike object is not SafeHtml.
  readonly #markup: string;
  private constructor(markup: string) {
    this.#markup = markup;
  }
  static {
    fromMarkup = (markup) => new SafeHtml(markup);
  }
  toString(): string {
    return this.#markup;
  }
}

/** What a template may interpolate; null, undefined and false render nothing. */
export type HtmlValue = string | number | SafeHtml | null | undefined | false | readonly HtmlValue[];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Safe in text and in quoted attribute values (templates always quote attributes). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character]);
}

function render(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.toString();
  if (typeof value === 'string') return escapeHtml(value);
  if (typeof value === 'number') return escapeHtml(String(value));
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) return value.map(render).join('');
  // The types rule this out; at run time an object would print as "[object Object]", so refuse it.
  throw new TypeError(`cannot put a ${typeof value} into HTML`);
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let markup = strings[0];
  for (let index = 0; index < values.length; index += 1) markup += render(values[index]) + strings[index + 1];
  return fromMarkup(markup);
}

/** Text with `code spans` (as the check descriptions write them) turned into <code> elements. */
export function withCodeSpans(text: string): SafeHtml {
  const parts = text.split('`');
  // An unpaired backtick stays a backtick instead of opening a span that never closes.
  if (parts.length % 2 === 0) return html`${text}`;
  return html`${parts.map((part, index) => (index % 2 === 1 ? html`<code>${part}</code>` : part))}`;
}

/** A URL fit for href: only http(s), so a page-supplied `javascript:` URL never becomes a link. */
export function httpUrlOrNull(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}
