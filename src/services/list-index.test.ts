// The in-memory list index must answer every list it takes exactly as the SQL path does (items, their
// order, the total), and only for the reports version it was built under.
import { expect, it } from 'vitest';
import { forEachDialect, type TestDatabase } from '../../test/support/databases.ts';
import { newUserId, reportInsert } from '../../test/support/repository-fixtures.ts';
import type { ReportResult } from '../db/tables/report.table.ts';
import type { DbExecutor } from '../repositories/executor.ts';
import { countReports, deleteReport, insertReport, insertReportsBulk, listReportItems } from '../repositories/report.repository.ts';
import type { ReportFilters, ReportSortBy } from '../repositories/report.repository.ts';
import { readReportsVersion } from '../repositories/reports-version.ts';
import type { IndexPageQuery } from './account-list-index.ts';
import { createListIndex, type ListIndex } from './list-index.ts';
import { buildIndexParts } from './list-index-build.ts';
import { createDb } from '../db/database.ts';
import type { JoinedItems } from '../repositories/joined-items-json.ts';

const VERDICTS: ReportResult[] = ['good', 'decent', 'bad'];
const SORTS: ReportSortBy[] = ['id', 'generated_at', 'url', 'result'];
const FILTERS: Omit<ReportFilters, 'search'>[] = [
  {},
  { project: 'a.com' },
  { project: 'b.com' },
  { project: 'c.com' }, // only good reports
  { project: 'nowhere.com' },
  { result: 'good' },
  { result: 'decent' },
  { project: 'a.com', result: 'bad' },
  { project: 'b.com', result: 'decent' },
  { project: 'c.com', result: 'bad' }, // empty
];

/**
 * Reports over three projects in no url order, with repeated urls and generated_at times (ties that
 * only the id breaks), text beyond ASCII, and c.com holding good reports only.
 */
async function accountWithVariedReports(db: DbExecutor, reports: number): Promise<number> {
  const owner = await newUserId(db);
  await insertReportsBulk(
    db,
    Array.from({ length: reports }, (_, index) => {
      const host = ['a.com', 'b.com', 'c.com'][index % 3];
      const path = index % 7 === 0 ? 'same' : `${index % 4 === 0 ? 'Ünï' : 'page'}-${(index * 37) % reports}`;
      return reportInsert(owner, {
        url: `https://${host}/${path}`,
        result: host === 'c.com' ? 'good' : VERDICTS[Math.floor(index / 3) % 3],
        generated_at: `2026-11-${String(1 + (index % 9)).padStart(2, '0')}T10:00:00.000Z`,
      });
    }),
  );
  return owner;
}

/**
 * A page's items as JSON text. The index hands them over as bytes that copy themselves or give their
 * ranges as views: both must be the same bytes.
 */
function joinedText(items: JoinedItems): string {
  const { json } = items;
  if (typeof json === 'string' || Buffer.isBuffer(json)) return json.toString();
  const bytes = Buffer.allocUnsafe(json.byteLength);
  json.copyTo(bytes, 0);
  const parts = json.parts();
  expect(parts).toHaveLength(json.partCount);
  expect(Buffer.concat(parts).equals(bytes)).toBe(true);
  return bytes.toString();
}

/** The page and total as the SQL path reads them. */
async function fromSql(db: DbExecutor, userId: number, query: IndexPageQuery) {
  const items = await listReportItems(db, userId, query);
  return { json: items.join(','), count: items.length, total: await countReports(db, userId, query) };
}

async function builtFor(index: ListIndex, userId: number, version: number): Promise<void> {
  const query: IndexPageQuery = { sortBy: 'id', sort: 'desc', limit: 1, offset: 0 };
  expect(index.page(userId, version, query)).toBeUndefined();
  expect(index.page(userId, version, query)).toBeUndefined();
  await index.idle();
}

async function versionOf(db: DbExecutor, userId: number): Promise<number> {
  const version = await readReportsVersion(db, userId);
  if (version === undefined) throw new Error('no such account');
  return version;
}

/** An account of `reports` varied reports (and a stranger's of `strangerReports`), its index built. */
async function builtAccountIndex(database: () => TestDatabase, reports: number, strangerReports = 0) {
  const { db, databaseUrl } = database();
  const owner = await accountWithVariedReports(db, reports);
  if (strangerReports > 0) await accountWithVariedReports(db, strangerReports);
  const { index, errors } = listIndexOn(databaseUrl);
  const version = await versionOf(db, owner);
  await builtFor(index, owner, version);
  return { db, owner, index, errors, version };
}

function listIndexOn(databaseUrl: string, maxBytes = 64 * 1024 * 1024) {
  const errors: unknown[] = [];
  const index = createListIndex(databaseUrl, maxBytes, { onBuildError: (_userId, error) => errors.push(error) });
  return { index, errors };
}

forEachDialect('list index', (database) => {
  it('answers every filter, sort, direction and page as the SQL path does', async () => {
    // Another account's reports never show.
    const { db, owner, index, errors, version } = await builtAccountIndex(database, 90, 10);
    expect(errors).toEqual([]);
    expect(index.usage().accounts).toBe(1);
    let fullPages = 0;
    for (const filters of FILTERS) {
      for (const sortBy of SORTS) {
        for (const sort of ['asc', 'desc'] as const) {
          for (const [limit, offset] of [[10, 0], [7, 14], [100, 0], [25, 500]]) {
            const query = { ...filters, sortBy, sort, limit, offset };
            const page = index.page(owner, version, query);
            if (page === undefined) throw new Error(`no page for ${JSON.stringify(query)}`);
            const expected = await fromSql(db, owner, query);
            expect({ json: joinedText(page.items), count: page.items.count, total: page.total }, JSON.stringify(query)).toEqual(expected);
            if (page.items.count === limit) fullPages++;
          }
        }
      }
    }
    expect(fullPages).toBeGreaterThan(40);
    await index.close();
  });

  it('gives a project\'s verdict by url, ascending, as one range of its bytes', async () => {
    const { owner, index, version } = await builtAccountIndex(database, 90);
    const partCount = (query: IndexPageQuery) => {
      const json = index.page(owner, version, query)?.items.json;
      if (json === undefined || typeof json === 'string' || Buffer.isBuffer(json)) throw new Error('no bytes from the index');
      return json.partCount;
    };
    const byUrl = { project: 'a.com', result: 'bad', sortBy: 'url', limit: 100, offset: 0 } as const;
    expect(partCount({ ...byUrl, sort: 'asc' })).toBe(1);
    expect(partCount({ ...byUrl, sort: 'asc', limit: 3, offset: 2 })).toBe(1);
    // Descending, each item is a range of its own.
    expect(partCount({ ...byUrl, sort: 'desc' })).toBe(10);
    await index.close();
  });

  it('builds only on the second miss under one version, and drops the index once the version moves', async () => {
    const { db } = database();
    const owner = await accountWithVariedReports(db, 12);
    const { index } = listIndexOn(database().databaseUrl);
    const version = await versionOf(db, owner);
    const query: IndexPageQuery = { sortBy: 'url', sort: 'asc', limit: 100, offset: 0 };
    expect(index.page(owner, version, query)).toBeUndefined();
    await index.idle();
    expect(index.usage().accounts).toBe(0);
    expect(index.page(owner, version, query)).toBeUndefined();
    await index.idle();
    expect(index.usage().accounts).toBe(1);
    expect(index.page(owner, version, query)?.total).toBe(12);

    const added = await insertReport(db, reportInsert(owner, { url: 'https://a.com/new' }));
    const moved = await versionOf(db, owner);
    expect(moved).toBeGreaterThan(version);
    // A request that read the version before the change is not answered, but does not drop the index.
    expect(index.page(owner, version - 1, query)).toBeUndefined();
    expect(index.usage().accounts).toBe(1);
    expect(index.page(owner, moved, query)).toBeUndefined();
    expect(index.usage()).toEqual({ accounts: 0, bytes: 0 });
    expect(index.page(owner, moved, query)).toBeUndefined();
    await index.idle();
    const rebuilt = index.page(owner, moved, query);
    expect(rebuilt?.total).toBe(13);
    expect((rebuilt && joinedText(rebuilt.items))).toContain(`{"id":${added},`);

    await deleteReport(db, owner, added);
    const afterDelete = await versionOf(db, owner);
    await builtFor(index, owner, afterDelete);
    expect(joinedText(index.page(owner, afterDelete, query)!.items)).not.toContain(`{"id":${added},`);
    await index.close();
  });

  it('builds each index from one moment: its items are exactly the reports of the version it names', async () => {
    const { db, databaseUrl } = database();
    const owner = await accountWithVariedReports(db, 30);
    const start = await versionOf(db, owner);
    // A second connection writes one report per transaction (one version each) while builds read.
    const writer = createDb(databaseUrl);
    let writing = true;
    const writes = (async () => {
      for (let n = 0; writing && n < 200; n++) await insertReport(writer.db, reportInsert(owner, { url: `https://a.com/w${n}` }));
    })();
    const seen = new Set<number>();
    try {
      for (let build = 0; build < 15; build++) {
        const outcome = await buildIndexParts(db, owner, 64 * 1024 * 1024);
        if (outcome === null || 'tooBig' in outcome) throw new Error('no index');
        expect(outcome.parts.ranks.length, `version ${outcome.version}`).toBe(30 + outcome.version - start);
        expect(outcome.parts.orders.url.order.length).toBe(outcome.parts.ranks.length);
        seen.add(outcome.version);
      }
    } finally {
      writing = false;
      await writes;
      await writer.destroy();
    }
    // The writes did land between builds.
    expect(seen.size).toBeGreaterThan(1);
  });

  it('holds no account beyond its budget: the least recently used goes, one too big is never held', async () => {
    const { db } = database();
    const first = await accountWithVariedReports(db, 30);
    const second = await accountWithVariedReports(db, 30);
    const { index: probe } = listIndexOn(database().databaseUrl);
    await builtFor(probe, first, await versionOf(db, first));
    const oneAccount = probe.usage().bytes;
    expect(oneAccount).toBeGreaterThan(30 * 200);

    const { index } = listIndexOn(database().databaseUrl, Math.floor(oneAccount * 1.5));
    await builtFor(index, first, await versionOf(db, first));
    await builtFor(index, second, await versionOf(db, second));
    expect(index.usage().accounts).toBe(1);
    expect(index.page(first, await versionOf(db, first), { sortBy: 'id', sort: 'asc', limit: 1, offset: 0 })).toBeUndefined();
    expect(index.page(second, await versionOf(db, second), { sortBy: 'id', sort: 'asc', limit: 1, offset: 0 })?.total).toBe(30);

    const { index: small } = listIndexOn(database().databaseUrl, Math.floor(oneAccount / 2));
    await builtFor(small, first, await versionOf(db, first));
    expect(small.usage()).toEqual({ accounts: 0, bytes: 0 });
    await Promise.all([probe.close(), index.close(), small.close()]);
  });

  it('builds nothing with a budget of 0 or once closed', async () => {
    const { db } = database();
    const owner = await accountWithVariedReports(db, 5);
    const version = await versionOf(db, owner);
    const { index: off } = listIndexOn(database().databaseUrl, 0);
    await builtFor(off, owner, version);
    expect(off.usage().accounts).toBe(0);
    const { index: closed } = listIndexOn(database().databaseUrl);
    await closed.close();
    await builtFor(closed, owner, version);
    expect(closed.usage().accounts).toBe(0);
  });

  it('warms the accounts it is given, in order, until the budget is full', async () => {
    const { db, databaseUrl } = database();
    const accounts = [await accountWithVariedReports(db, 20), await accountWithVariedReports(db, 20), await accountWithVariedReports(db, 20)];
    const { index: probe } = listIndexOn(databaseUrl);
    probe.warm([accounts[0]]);
    await probe.idle();
    const oneAccount = probe.usage().bytes;
    expect(probe.usage().accounts).toBe(1);

    // Room for two: the third is not built, and nothing held is dropped for it.
    const { index, errors } = listIndexOn(databaseUrl, Math.floor(oneAccount * 2.5));
    index.warm(accounts);
    await index.idle();
    expect(errors).toEqual([]);
    expect(index.usage().accounts).toBe(2);
    const query: IndexPageQuery = { sortBy: 'id', sort: 'asc', limit: 100, offset: 0 };
    expect(index.page(accounts[0], await versionOf(db, accounts[0]), query)?.total).toBe(20);
    expect(index.page(accounts[1], await versionOf(db, accounts[1]), query)?.total).toBe(20);
    expect(index.page(accounts[2], await versionOf(db, accounts[2]), query)).toBeUndefined();
    await Promise.all([probe.close(), index.close()]);
  });

  it('answers an account with no reports with an empty list', async () => {
    const { db } = database();
    const owner = await newUserId(db);
    const { index } = listIndexOn(database().databaseUrl);
    const version = await versionOf(db, owner);
    await builtFor(index, owner, version);
    expect(index.page(owner, version, { sortBy: 'url', sort: 'desc', limit: 10, offset: 0 })).toEqual({
      items: { count: 0, json: '' },
      total: 0,
    });
    expect(index.page(owner, version, { project: 'a.com', result: 'good', sortBy: 'id', sort: 'asc', limit: 10, offset: 0 })?.total).toBe(0);
    await index.close();
  });
});
