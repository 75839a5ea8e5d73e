// The share links table (docs/organisations.md, "Share links"): up makes it, with exactly one of report
// and crawl per row, unique token hashes, and the indexes its lists read; a link goes with its report,
// its crawl or its organisation, and outlives the account that made it (its e-mail kept). Down drops it.
import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateTo } from '../../src/db/migrate.ts';
import * as shareLinks from '../../src/db/migrations/2026-12-04-1300-share-links.ts';
import { testDialects, withUnmigratedDatabase } from '../support/databases.ts';
import { indexColumns, tableColumns } from '../support/schema.ts';

const AT = '2026-12-04T13:00:00.000Z';
const BEFORE = '2026-12-04-1200-organizations';

/** An account, an organisation it owns, a report and a crawl of the organisation's. */
async function seed(db: Kysely<any>, name: string) {
  const { id: userId } = await db.insertInto('users').values({ email: `${name}@example.test`, is_admin: 0, created_at: AT }).returning('id').executeTakeFirstOrThrow();
  const { id: organizationId } = await db.insertInto('organizations').values({ name, created_at: AT, updated_at: AT }).returning('id').executeTakeFirstOrThrow();
  const { id: reportId } = await db
    .insertInto('reports')
    .values({
      // queued, no run yet: the fewest columns a report needs
      organization_id: organizationId, url: `https://${name}.test/`, url_lower: `https://${name}.test/`, project: `${name}.test`, privacy: 1, result_rank: -1,
      state: 'queued', runs_count: 0, last_run_number: 0, created_at: AT, updated_at: AT,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const { id: crawlId } = await db
    .insertInto('crawls')
    .values({ organization_id: organizationId, url: `https://${name}.test/`, project: `${name}.test`, state: 'done', max_pages: 5, max_depth: 2, use_sitemap: 0, privacy: 0, render: 0, created_at: AT })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { userId: Number(userId), organizationId: Number(organizationId), reportId: Number(reportId), crawlId: Number(crawlId), email: `${name}@example.test` };
}

type Seeded = Awaited<ReturnType<typeof seed>>;

function link(seeded: Seeded, hash: string, target: { report?: number; crawl?: number }) {
  return {
    organization_id: seeded.organizationId, report_id: target.report ?? null, crawl_id: target.crawl ?? null, token_hash: hash, prefix: hash.slice(0, 8),
    created_by: seeded.userId, created_by_email: seeded.email, created_at: AT, expires_at: '2027-01-03T13:00:00.000Z', revoked_at: null,
  };
}

async function hashes(db: Kysely<any>): Promise<string[]> {
  return (await db.selectFrom('share_links').select('token_hash').orderBy('token_hash').execute()).map((row) => row.token_hash);
}

describe.each(testDialects())('share links migration [%s]', (dialect) => {
  it('up: the table with its columns, its check, its unique hash and its indexes; down drops it', async () => {
    await withUnmigratedDatabase(dialect, async (db) => {
      await migrateTo(db, BEFORE);
      const ana = await seed(db, 'ana');
      await shareLinks.up(db);
      expect((await tableColumns(db, dialect, 'share_links')).sort()).toEqual(
        ['crawl_id', 'created_at', 'created_by', 'created_by_email', 'expires_at', 'id', 'organization_id', 'prefix', 'report_id', 'revoked_at', 'token_hash'],
      );
      expect(await indexColumns(db, dialect, 'share_links_report_idx')).toEqual(['report_id', 'id']);
      expect(await indexColumns(db, dialect, 'share_links_crawl_idx')).toEqual(['crawl_id', 'id']);

      await db.insertInto('share_links').values(link(ana, 'report-link-hash', { report: ana.reportId })).execute();
      await db.insertInto('share_links').values(link(ana, 'crawl-link-hash', { crawl: ana.crawlId })).execute();
      await expect(db.insertInto('share_links').values(link(ana, 'both-hash', { report: ana.reportId, crawl: ana.crawlId })).execute()).rejects.toThrow();
      await expect(db.insertInto('share_links').values(link(ana, 'neither-hash', {})).execute()).rejects.toThrow();
      await expect(db.insertInto('share_links').values(link(ana, 'report-link-hash', { crawl: ana.crawlId })).execute()).rejects.toThrow();
      expect(await hashes(db)).toEqual(['crawl-link-hash', 'report-link-hash']);

      await shareLinks.down(db);
      expect(await tableColumns(db, dialect, 'share_links')).toEqual([]);
      // What it pointed at is untouched.
      expect(await db.selectFrom('reports').select('id').execute()).toHaveLength(1);
    });
  });

  it('a link goes with its report, its crawl or its organisation, and outlives its maker', async () => {
    await withUnmigratedDatabase(dialect, async (db) => {
      await migrateTo(db, BEFORE);
      const ana = await seed(db, 'ana');
      const bob = await seed(db, 'bob');
      await shareLinks.up(db);
      await db.insertInto('share_links').values([
        link(ana, 'ana-report', { report: ana.reportId }),
        link(ana, 'ana-crawl', { crawl: ana.crawlId }),
        link(bob, 'bob-report', { report: bob.reportId }),
        link(bob, 'bob-crawl', { crawl: bob.crawlId }),
      ]).execute();

      await db.deleteFrom('reports').where('id', '=', ana.reportId).execute();
      expect(await hashes(db)).toEqual(['ana-crawl', 'bob-crawl', 'bob-report']);
      await db.deleteFrom('crawls').where('id', '=', ana.crawlId).execute();
      expect(await hashes(db)).toEqual(['bob-crawl', 'bob-report']);

      await db.deleteFrom('users').where('id', '=', bob.userId).execute();
      const kept = await db.selectFrom('share_links').select(['created_by', 'created_by_email']).execute();
      expect(kept).toEqual([{ created_by: null, created_by_email: bob.email }, { created_by: null, created_by_email: bob.email }]);

      await db.deleteFrom('organizations').where('id', '=', bob.organizationId).execute();
      expect(await hashes(db)).toEqual([]);
    });
  });
});
