// What `crawl` writes once the crawl has ended: the JSON --json prints, and the --output files, each
// in the format its name ends in (outputs/index.ts reads and checks the names, as for analyze). None
// holds a request header's value: the crawl object names the headers (header_names), nothing more.
import { writeFile } from 'node:fs/promises';
import type { CrawlDiff } from '../crawl/crawl-diff.ts';
import { RAW_CONTROLS } from './analyze-output.ts';
import { UsageError } from './command.ts';
import type { CrawlOutcome } from './crawl-text.ts';
import { renderCrawlHtml } from './outputs/crawl-html.ts';
import { renderCrawlJunit } from './outputs/crawl-junit.ts';
import { renderCrawlSarif } from './outputs/crawl-sarif.ts';
import type { OutputFile } from './outputs/index.ts';

/** --json's object: the crawl, its issues and every visited internal URL; with --compare also the diff. */
export interface CrawlReport extends CrawlOutcome {
  diff?: CrawlDiff;
}

/**
 * As analyze's JSON: the characters a terminal may act on that JSON.stringify leaves raw are escaped
 * (they occur only inside strings, so the value stays exactly as it was).
 */
export function renderCrawlJson(report: CrawlReport): string {
  const json = JSON.stringify(report, null, 2).replace(RAW_CONTROLS, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `${json}\n`;
}

const RENDERERS: Record<OutputFile['format'], (report: CrawlReport) => string> = {
  json: renderCrawlJson,
  html: renderCrawlHtml,
  junit: renderCrawlJunit,
  sarif: renderCrawlSarif,
};

export async function writeCrawlOutputs(files: readonly OutputFile[], report: CrawlReport): Promise<void> {
  for (const file of files) {
    try {
      await writeFile(file.path, RENDERERS[file.format](report));
    } catch (error) {
      throw new UsageError(`Cannot write --output ${file.path}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
