// `crawl --csv`: every page the crawl reached, one row each, as the API's pages export writes them.
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { CrawlPage } from '../services/crawl-view.ts';
import { CRAWL_PAGE_CSV_COLUMNS } from '../csv/crawl-columns.ts';
import { csvStream } from '../csv/csv.ts';
import { UsageError } from './command.ts';

export async function writeCrawlCsv(path: string, pages: readonly CrawlPage[]): Promise<void> {
  try {
    await pipeline(await csvStream(CRAWL_PAGE_CSV_COLUMNS, pages), createWriteStream(path));
  } catch (error) {
    throw new UsageError(`--csv ${path} could not be written: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}
