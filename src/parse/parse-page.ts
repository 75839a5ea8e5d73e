// parsePage: the one HTML parse of the pipeline. A single streaming htmlparser2 pass (no DOM) feeds
// PageCollector, which fills the PageSnapshot every check reads.
import type { ParserOptions } from 'htmlparser2';
import { DepthCappedParser } from './depth-capped-parser.ts';
import { PageCollector } from './page-collector.ts';
import type { PageSnapshot } from './page-snapshot.ts';

const PARSER_OPTIONS: ParserOptions = {
  decodeEntities: true,
  lowerCaseTags: true,
  lowerCaseAttributeNames: true,
};

/** Parses decoded HTML fetched from `finalUrl` (the base for relative URLs unless a <base> says otherwise). */
export function parsePage(html: string, finalUrl: string): PageSnapshot {
  const collector = new PageCollector();
  const parser = new DepthCappedParser(collector, PARSER_OPTIONS, () => collector.depth);
  parser.end(html);
  return collector.snapshot(html.length, finalUrl);
}
