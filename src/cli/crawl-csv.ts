// `crawl --csv`: every page the crawl reached, one row each, as the API's pages export writes them.
import { writeFile } from 'node:fs/promises';
import type { CrawlPage } from '../services/crawl-view.ts';
import { CRAWL_PAGE_CSV_COLUMNS } from '../csv/crawl-columns.ts';
import { csvLine } from '../csv/csv.ts';
import { UsageError } from './command.ts';

export async function writeCrawlCsv(path: string, pages: readonly CrawlPage[]): Promise<void> {
  const lines = [csvLine(CRAWL_PAGE_CSV_COLUMNS.map((column) => column.header))];
  for (const page of pages) lines.push(csvLine(CRAWL_PAGE_CSV_COLUMNS.map((column) => column.cell(page))));
  try {
    await writeFile(path, lines.join(''));
  } catch (error) {
    throw new UsageError(`--csv ${path} could not be written: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}
