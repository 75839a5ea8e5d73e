// parsePage: the one HTML parse of the pipeline. A single streaming htmlparser2 pass (no DOM) feeds
// PageCollector, which fills the PageSnapshot every check reads.
import type { ParserOptions } from 'htmlparser2';
import { PageCollector } from './page-collector.ts';
import { PageParser } from './page-parser.ts';
import type { PageSnapshot } from './page-snapshot.ts';

/** Also the engine benchmark's floor: a bare parse with exactly these options. */
export const PARSER_OPTIONS: ParserOptions = {
  decodeEntities: true,
  lowerCaseTags: true,
  lowerCaseAttributeNames: true,
};

/** Parses decoded HTML fetched from `finalUrl` (the base for relative URLs unless a <base> says otherwise). */
export function parsePage(html: string, finalUrl: string): PageSnapshot {
  const collector = new PageCollector(html);
  const parser = new PageParser(collector, PARSER_OPTIONS);
  parser.parseDocument(html);
  return collector.snapshot(finalUrl);
}
