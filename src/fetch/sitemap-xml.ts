// A cheap well-formedness check of a sitemap: one root element named urlset or sitemapindex, every
// element closed explicitly (htmlparser2 reports implied closes), no text outside the root.
import { Parser } from 'htmlparser2';

export interface SitemapInspection {
  validXml: boolean;
  /** <loc> entries of <url> (urlset) or <sitemap> (sitemapindex) elements. */
  urlCount: number;
}

const SITEMAP_ROOTS = new Set(['urlset', 'sitemapindex']);
const ENTRY_ELEMENTS = new Set(['url', 'sitemap']);

export function inspectSitemapXml(xml: string): SitemapInspection {
  const open: string[] = [];
  let roots = 0;
  let rootName = '';
  let wellFormed = true;
  let urlCount = 0;
  const parser = new Parser(
    {
      onopentag(name) {
        const local = localName(name);
        if (open.length === 0) {
          roots++;
          rootName = local;
        }
        if (local === 'loc' && ENTRY_ELEMENTS.has(open[open.length - 1] ?? '')) urlCount++;
        open.push(local);
      },
      onclosetag(_name, isImplied) {
        if (isImplied) wellFormed = false;
        open.pop();
      },
      ontext(text) {
        if (open.length === 0 && text.trim() !== '') wellFormed = false;
      },
    },
    { xmlMode: true },
  );
  parser.end(xml);
  const validXml = wellFormed && roots === 1 && SITEMAP_ROOTS.has(rootName);
  return { validXml, urlCount };
}

/** "sm:urlset" -> "urlset": sitemaps are sometimes written with a namespace prefix. */
function localName(name: string): string {
  return name.slice(name.indexOf(':') + 1);
}
