// parsePage: the one HTML parse of the pipeline. A single streaming pass of htmlparser2's tokenizer (no
// DOM) through PageParser feeds PageCollector, which fills the PageSnapshot every check reads.
import type { ParserOptions } from 'htmlparser2';
import type { PageText } from '../fetch/page-text.ts';
import { PageCollector } from './page-collector.ts';
import { PageParser } from './page-parser.ts';
import type { PageSnapshot } from './page-snapshot.ts';

/**
 * The engine benchmark's floor: a bare htmlparser2 Parser with exactly these options. PageParser builds
 * the same tree as that Parser with these options (see page-parser.ts).
 */
export const PARSER_OPTIONS: ParserOptions = {
  decodeEntities: true,
  lowerCaseTags: true,
  lowerCaseAttributeNames: true,
};

/** Parses decoded HTML fetched from `finalUrl` (the base for relative URLs unless a <base> says otherwise). */
export function parsePage(html: PageText, finalUrl: string): PageSnapshot {
  const collector = new PageCollector(html.length);
  new PageParser(collector).parseDocument(html);
  return collector.snapshot(finalUrl, html);
}
