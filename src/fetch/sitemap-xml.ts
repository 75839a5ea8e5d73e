// The one sitemap parser (sitemaps.org): one streaming htmlparser2 pass over a sitemap file's text that
// tells whether it is a well-formed sitemap (one root element named urlset or sitemapindex, every
// element closed, no text outside the root) and collects its <loc> entries. The page check `sitemap`
// (through sitemap.ts) and a crawl's seed URLs (crawl/sitemap-urls.ts) both read it; it runs on an
// analysis thread when there is one (sitemap-file.ts), as a file may be megabytes.
import { Parser } from 'htmlparser2';
import { decodeText, plainTextEncoding } from './charset.ts';

export interface SitemapContent {
  /** Why the file is not a readable sitemap, else null. */
  error: string | null;
  /** The first non-empty <loc> of each <url> of a <urlset>, trimmed, as written (entities decoded). */
  pages: string[];
  /** The first non-empty <loc> of each <sitemap> of a <sitemapindex>, trimmed, as written. */
  sitemaps: string[];
  /** Every <loc> directly inside a <url> or <sitemap>, empty ones included: what the page check counts. */
  entries: number;
  /**
   * A self-closing element (`<xhtml:link ... />`) was seen. Valid XML, and read as such for a crawl; the
   * page check has always counted one as an element left open, and keeps doing so.
   */
  selfClosing: boolean;
}

const SITEMAP_ROOTS = new Set(['urlset', 'sitemapindex']);
const ENTRY_ELEMENTS = new Set(['url', 'sitemap']);

export function parseSitemapXml(xml: string): SitemapContent {
  const open: string[] = [];
  const pages: string[] = [];
  const sitemaps: string[] = [];
  let rootName: string | null = null;
  let problem: string | null = null;
  let entries = 0;
  let selfClosing = false;
  /** The entry being read (its first non-empty <loc> is taken), and the <loc> text being gathered. */
  let entry: { found: boolean } | null = null;
  let loc: { text: string; nested: boolean } | null = null;
  let openedAt = -1;
  const parser: Parser = new Parser(
    {
      onopentag(name) {
        const local = localName(name);
        openedAt = parser.startIndex;
        if (open.length === 0) {
          if (rootName === null) rootName = local;
          else problem ??= 'it has more than one root element';
        }
        const parent = open[open.length - 1] ?? '';
        if (loc !== null) loc.nested = true;
        if (ENTRY_ELEMENTS.has(local) && open.length === 1) entry = { found: false };
        if (local === 'loc' && ENTRY_ELEMENTS.has(parent)) {
          entries++;
          if (open.length === 2) loc = { text: '', nested: false };
        }
        open.push(local);
      },
      ontext(text) {
        if (loc !== null) loc.text += text;
        else if (open.length === 0 && text.trim() !== '') problem ??= 'it has text outside the root element';
      },
      onclosetag(name, isImplied) {
        const local = open.pop();
        // htmlparser2 reports a self-closing element's end as implied: tell it from an element left open.
        const selfClosed = isImplied && parser.startIndex === openedAt && xml.startsWith('/>', parser.endIndex - 1);
        openedAt = -1;
        if (selfClosed) selfClosing = true;
        else if (isImplied) problem ??= `<${localName(name)}> is not closed`;
        if (local === 'loc' && open.length === 2 && loc !== null) {
          const text = loc.text.trim();
          if (entry !== null && !entry.found && !loc.nested && text !== '') {
            entry.found = true;
            (open[1] === 'url' ? pages : sitemaps).push(text);
          }
          loc = null;
        }
        if (open.length === 1) entry = null;
      },
    },
    { xmlMode: true },
  );
  parser.end(xml);
  const failed = (error: string): SitemapContent => ({ error, pages: [], sitemaps: [], entries, selfClosing });
  if (rootName === null) return failed('The sitemap is not XML: it has no root element.');
  if (problem !== null) return failed(`The sitemap is not well-formed XML: ${problem}.`);
  if (!SITEMAP_ROOTS.has(rootName)) return failed(`The sitemap's root element is <${rootName}>, not <urlset> or <sitemapindex>.`);
  // Entries of the other kind (a <sitemap> in a <urlset>) are counted, as they always were, not followed.
  return {
    error: null,
    pages: rootName === 'urlset' ? pages : [],
    sitemaps: rootName === 'sitemapindex' ? sitemaps : [],
    entries,
    selfClosing,
  };
}

/** A sitemap file's bytes (already gunzipped), decoded with its charset (the label, else sniffed), parsed. */
export function parseSitemapBytes(bytes: Uint8Array, charsetLabel: string | null): SitemapContent {
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return parseSitemapXml(decodeText(buffer, plainTextEncoding(buffer, charsetLabel)));
}

/** What the page check `sitemap` reports of a sitemap that answered: well-formed, and its entries. */
export function sitemapInspection(content: SitemapContent): { validXml: boolean; urlCount: number } {
  return { validXml: content.error === null && !content.selfClosing, urlCount: content.entries };
}

/** "sm:urlset" -> "urlset": sitemaps are sometimes written with a namespace prefix. */
function localName(name: string): string {
  return name.slice(name.indexOf(':') + 1);
}
