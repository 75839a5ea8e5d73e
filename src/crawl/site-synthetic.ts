// Test and benchmark only: a large stored crawl written straight into a SQLite file, fast (one
// prepared statement per table, one transaction), shaped like a real site: every page links to the
// same few navigation pages and to a few others, some URLs redirect (in chains), some answer 404,
// pages share titles and descriptions, URLs past max_depth wait with no reason yet.
import SqliteDatabase from 'better-sqlite3';

export interface SyntheticCrawl {
  pages: number;
  linksPerPage: number;
}

/** Pages every page links to (a site's navigation). */
const NAVIGATION = 5;
const MAX_DEPTH = 5;

/** Writes the crawl's pages and links (the crawl row, `crawlId`, exists); returns the number of links. */
export function writeSyntheticCrawl(filename: string, crawlId: number, shape: SyntheticCrawl): number {
  const database = new SqliteDatabase(filename);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = OFF');
  const insertPage = database.prepare(`insert into crawl_pages (id, crawl_id, url, state, depth, in_sitemap, status_code, redirect_target,
    error, title, score, html, noindex, description, canonical, text_hash, hreflang, links_dropped)
    values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const insertLink = database.prepare('insert into crawl_links (crawl_id, to_id, from_id, nofollow) values (?, ?, ?, ?)');
  const base = (database.prepare('select coalesce(max(id), 0) as id from crawl_pages').get() as { id: number }).id + 1;
  const url = (index: number) => `https://example.com/${index % 7 === 0 ? 'shop' : 'blog'}/${index.toString(36)}`;
  let links = 0;
  database.transaction(() => {
    for (let index = 0; index < shape.pages; index++) {
      const kind = index < NAVIGATION + 1 ? 'page' : index % 50 === 0 ? 'redirect' : index % 97 === 0 ? 'missing' : index % 11 === 0 ? 'waiting' : 'page';
      const depth = kind === 'waiting' ? MAX_DEPTH + 1 : Math.min(MAX_DEPTH, 1 + (index % 6));
      const html = kind === 'page';
      insertPage.run(
        base + index,
        crawlId,
        index === 0 ? 'https://example.com/' : url(index),
        kind === 'waiting' ? 'pending' : 'done',
        index === 0 ? 0 : depth,
        index % 3 === 0 ? 1 : 0,
        kind === 'redirect' ? 301 : kind === 'missing' ? 404 : kind === 'waiting' ? null : 200,
        kind === 'redirect' ? url(index + 1) : null,
        null,
        html ? `Title ${index % 5000}` : null,
        html ? 50 + (index % 50) : null,
        html ? 1 : 0,
        html && index % 13 === 0 ? 1 : 0,
        html ? `About ${index % 20000}` : null,
        html && index % 2 === 0 ? url(index) : null,
        html ? (index % 9).toString(16) + index.toString(16) : null,
        html && index % 100 === 1 ? JSON.stringify([{ lang: 'de', url: url(index + 1) }]) : null,
        0,
      );
    }
    for (let from = 0; from < shape.pages; from++) {
      if (from >= NAVIGATION + 1 && (from % 50 === 0 || from % 97 === 0 || from % 11 === 0)) continue;
      const targets = new Set<number>();
      for (let nav = 1; nav <= NAVIGATION; nav++) targets.add(nav);
      for (let k = 1; targets.size < shape.linksPerPage; k++) targets.add((from * 7919 + k * 104_729) % shape.pages);
      for (const to of targets) {
        insertLink.run(crawlId, base + to, base + from, to % 101 === 0 ? 1 : 0);
        links++;
      }
    }
  })();
  // Checkpointed here, not by the next write of the code under test.
  database.pragma('wal_checkpoint(TRUNCATE)');
  database.close();
  return links;
}
