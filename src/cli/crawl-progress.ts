// Progress of a crawl on stderr: on a terminal one line redrawn in place; otherwise (CI logs, pipes)
// a line whenever ten more pages are in, never a cursor movement.
import type { Crawl } from '../services/crawl-view.ts';

type Stream = NodeJS.WritableStream & { isTTY?: boolean };

const BAR_WIDTH = 30;
const CLEAR_LINE = '\r\u001b[2K';
const LOG_EVERY_PAGES = 10;

function counts(crawl: Crawl): string {
  const failed = crawl.pages_failed > 0 ? `, ${crawl.pages_failed} failed` : '';
  return `${crawl.pages_crawled}/${crawl.max_pages} pages analysed, ${crawl.pages_found} URLs found${failed}`;
}

export function createCrawlProgress(stream: Stream) {
  let logged = -1;
  return {
    update(crawl: Crawl): void {
      if (stream.isTTY === true) {
        const filled = Math.round((BAR_WIDTH * crawl.pages_crawled) / crawl.max_pages);
        stream.write(`${CLEAR_LINE}Crawling [${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${counts(crawl)}`);
      } else if (crawl.pages_crawled >= logged + LOG_EVERY_PAGES || (crawl.state !== 'running' && crawl.pages_crawled !== logged)) {
        logged = crawl.pages_crawled;
        stream.write(`[crawl] ${counts(crawl)}\n`);
      }
    },
    /** Clears the bar, so what follows starts on a clean line. */
    end(): void {
      if (stream.isTTY === true) stream.write(CLEAR_LINE);
    },
  };
}
