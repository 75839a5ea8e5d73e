// Read benchmark: the API's read queries through the real server (its own process) over a seeded
// database, with load from a process of its own (load.ts); each request picks a random account (and
// report, project, verdict). The reports table and its indexes are in memory before each server starts
// and before each query (warm-cache.ts). Floor: bare Fastify (its own process) answering a prebuilt
// body of the size pagegrade answered that query with.
import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DialectName } from '../src/db/database.ts';
import { runLoad, type LoadResult } from './load.ts';
import { startPagegrade } from './pagegrade-server.ts';
import { freePort, sampleRss, startService, type ProcessOptions } from './processes.ts';
import { pick, seededRandom } from './random.ts';
import { prepareReadDatabase, type ReadAccount, type SeedInfo } from './seed.ts';
import { SEARCH_TERM, type SeedSize } from './seed-rows.ts';
import { warmReportTables } from './warm-cache.ts';
import { round } from './stats.ts';

/** autocannon's default; latency targets are judged at this concurrency. */
export const READ_CONNECTIONS = 10;
const SIZES: Record<'quick' | 'full', SeedSize> = {
  quick: { reports: 20_000, accounts: 100, projectsPerAccount: 50 },
  full: { reports: 1_000_000, accounts: 100, projectsPerAccount: 50 },
};
const DURATIONS_S = { quick: { warmUp: 0.5, measured: 1 }, full: { warmUp: 3, measured: 10 } };

export const READ_QUERIES = ['show', 'list_default', 'list_search', 'list_filtered', 'projects_list'] as const;
export type ReadQuery = (typeof READ_QUERIES)[number];

const VERDICTS = ['good', 'decent', 'bad'] as const;
/** Each query's request for an account (bench/experiments/read-queries.ts reuses them). */
export const READ_PATHS: Record<ReadQuery, AccountPath> = {
  show: (random, account) => `/api/v1/reports/${pick(random, account.reportIds)}`,
  list_default: () => '/api/v1/reports',
  list_search: () => `/api/v1/reports?search=${SEARCH_TERM}`,
  list_filtered: (random, account) =>
    `/api/v1/reports?project=${pick(random, account.projects)}&result=${pick(random, VERDICTS)}&sort_by=url&sort=asc`,
  projects_list: () => '/api/v1/projects',
};

/** A path for one account's request; `random` picks its report, project or verdict. */
export type AccountPath = (random: () => number, account: ReadAccount) => string;

/** Load requests each made by a random account, with its API key, for the path made for it. */
export function asRandomAccounts(random: () => number, accounts: readonly ReadAccount[], pathFor: AccountPath) {
  return () => {
    const account = pick(random, accounts);
    return { path: pathFor(random, account), headers: { authorization: `Bearer ${account.apiKey}` } };
  };
}

/** A query's load through a server with no list cache nor index: what a list costs read from the database. */
export interface UncachedResult extends LoadResult {
  ratio_vs_static: number;
}

export interface QueryResult extends LoadResult {
  /** an example request */
  example: string;
  static: LoadResult;
  /** throughput / the static floor's throughput */
  ratio_vs_static: number;
  /** lists only: the same load with PAGEGRADE_LIST_CACHE_MB=0 */
  cache_off?: UncachedResult;
}

export type ReadResult = {
  database: DialectName;
  connections: number;
  seed: SeedInfo;
  /** highest resident memory of the server process over all queries */
  server_rss_peak_mb: number;
} & Record<ReadQuery, QueryResult>;

/** The lists, whose answers the server keeps in memory (src/http/kept-list-bodies.ts); show is never kept. */
export const LIST_QUERIES = READ_QUERIES.filter((query) => query !== 'show');

export async function runReadBenchmark(
  dialect: DialectName,
  quick: boolean,
  options: ProcessOptions & { postgresUrl?: string } = {},
): Promise<ReadResult> {
  const durations = quick ? DURATIONS_S.quick : DURATIONS_S.full;
  const database = await prepareReadDatabase(dialect, quick ? SIZES.quick : SIZES.full, !quick, options.postgresUrl);
  const scratch = await mkdtemp(join(tmpdir(), 'pagegrade-bench-static-'));
  try {
    const measure = (origin: string, next: () => { path: string; headers?: Record<string, string> }) =>
      runLoad({ origin, connections: READ_CONNECTIONS, warmUpS: durations.warmUp, durationS: durations.measured, next });
    /** Each query through a pagegrade server started with `settings`, the same random requests each time. */
    const measurePagegrade = async (queries: readonly ReadQuery[], settings: Record<string, string> = {}) => {
      // As a server that has been running has them: a starting server builds its list indexes from
      // them, and right after the create benchmark's writes they would come from disk.
      await warmReportTables(dialect, database.databaseUrl);
      const server = await startPagegrade(database.databaseUrl, options, settings);
      const measured = {} as Record<ReadQuery, LoadResult & { example: string }>;
      /** what the server answered each query's example with: the floor answers a body of that size */
      const bodies = {} as Record<ReadQuery, string>;
      try {
        const rss = sampleRss(server.pid);
        for (const query of queries) {
          const random = seededRandom(READ_QUERIES.indexOf(query) + 1);
          const example = READ_PATHS[query](random, database.accounts[0]);
          bodies[query] = await fetchBody(server.origin, example, database.accounts[0]);
          await warmReportTables(dialect, database.databaseUrl);
          const result = await measure(server.origin, asRandomAccounts(random, database.accounts, READ_PATHS[query]));
          measured[query] = { ...result, example };
        }
        return { measured, bodies, rssPeak: rss.stop() };
      } finally {
        await server.stop();
      }
    };

    const shipped = await measurePagegrade(READ_QUERIES);
    // Neither kept answers nor in-memory list indexes: every list read from the database.
    const cacheOff = await measurePagegrade(LIST_QUERIES, { PAGEGRADE_LIST_CACHE_MB: '0', PAGEGRADE_LIST_INDEX_MB: '0' });

    const bodiesFile = join(scratch, 'bodies.json');
    writeFileSync(bodiesFile, JSON.stringify(shipped.bodies));
    const port = await freePort();
    const floor = await startService('bench/static-floor.ts', port, { PORT: String(port), STATIC_BODIES: bodiesFile }, '/ready', options);
    const results = {} as Record<ReadQuery, QueryResult>;
    try {
      for (const query of READ_QUERIES) {
        const floorResult = await measure(floor.origin, () => ({ path: `/static/${query}` }));
        const measured = shipped.measured[query];
        const off = cacheOff.measured[query];
        results[query] = {
          ...measured,
          static: floorResult,
          ratio_vs_static: round(measured.rps / floorResult.rps, 3),
          ...(off && { cache_off: { ...withoutExample(off), ratio_vs_static: round(off.rps / floorResult.rps, 3) } }),
        };
      }
    } finally {
      await floor.stop();
    }
    return {
      database: dialect,
      connections: READ_CONNECTIONS,
      seed: database.seed,
      server_rss_peak_mb: Math.max(shipped.rssPeak, cacheOff.rssPeak),
      ...results,
    };
  } finally {
    await rm(scratch, { recursive: true, force: true });
    await database.dispose();
  }
}

function withoutExample({ example: _example, ...load }: LoadResult & { example: string }): LoadResult {
  return load;
}

async function fetchBody(origin: string, path: string, account: ReadAccount): Promise<string> {
  const response = await fetch(`${origin}${path}`, { headers: { authorization: `Bearer ${account.apiKey}` } });
  const body = await response.text();
  if (!response.ok) throw new Error(`GET ${path} answered ${response.status}: ${body.slice(0, 200)}`);
  return body;
}
