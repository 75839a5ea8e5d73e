// Read benchmark: the API's read queries through the real server (its own process) over a seeded
// database, with load from a process of its own (load.ts); each request picks a random account (and
// report, project, verdict). Floor: the query floor (query-floor.ts), the same planned requests' SQL
// statements, taken from the server's own code (read-statements.ts), run straight through the driver
// in a process of its own. Each query loads the server and its floor in turn, a few seconds each,
// several rounds (DURATIONS_S), so that both see the machine alike: on this benchmark's VMs the same load's
// rate moves by a third from one ten-second stretch to the next, and one long load of each, one after
// the other, could put the server in a slow stretch and its floor in a fast one. Before the first
// round the tables are read into memory (warm-cache.ts).
import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RequestSpec } from 'autocannon';
import type { DialectName } from '../src/db/database.ts';
import { loadResult, runLoadSamples, type LoadResult, type LoadSamples } from './load.ts';
import { startPagegrade } from './pagegrade-server.ts';
import { sampleRss, startRounds, type ProcessOptions } from './processes.ts';
import { pick, seededRandom } from './random.ts';
import { captureStatements, type StatementPlan } from './read-statements.ts';
import { prepareReadDatabase, type ReadAccount, type SeedInfo } from './seed.ts';
import { SEARCH_TERM, type SeedSize } from './seed-rows.ts';
import type { FloorRound, FloorSamples } from './query-floor.ts';
import { pooledThroughput, round, type Throughput } from './stats.ts';
import { warmReportTables } from './warm-cache.ts';

/** autocannon's default; latency targets are judged at this concurrency. */
export const READ_CONNECTIONS = 10;
const SIZES: Record<'quick' | 'full', SeedSize> = {
  quick: { reports: 20_000, accounts: 100, projectsPerAccount: 50 },
  full: { reports: 1_000_000, accounts: 100, projectsPerAccount: 50 },
};
/**
 * Per query, for the server and its floor alike: the first round's warm-up (code compiled, caches
 * filled), the rounds, and each later round's warm-up and each round's measured seconds.
 */
const DURATIONS_S = {
  quick: { firstWarmUp: 0.5, rounds: 2, warmUp: 0.25, measured: 0.5 },
  full: { firstWarmUp: 3, rounds: 4, warmUp: 1, measured: 3 },
};
/**
 * Requests drawn for each query, sent over and over. Full: the accounts, projects, verdicts and report
 * ids make 15,000 combinations at most, and a plan this long holds most of them (about 10,000 of the
 * filtered list's), so cycling it changes little of what is read. Quick: shorter, since each distinct
 * request is also sent once to capture its statements (read-statements.ts), and a quick run only
 * checks that everything is reported.
 */
const PLANNED_REQUESTS = { quick: 1_024, full: 16_384 };

export const READ_QUERIES = ['show', 'list_default', 'list_search', 'list_filtered', 'projects_list'] as const;
export type ReadQuery = (typeof READ_QUERIES)[number];

const VERDICTS = ['good', 'decent', 'bad'] as const;
/** Each query's request for an account. */
const READ_PATHS: Record<ReadQuery, AccountPath> = {
  show: (random, account) => `/api/v1/reports/${pick(random, account.reportIds)}`,
  list_default: () => '/api/v1/reports',
  list_search: () => `/api/v1/reports?search=${SEARCH_TERM}`,
  list_filtered: (random, account) =>
    `/api/v1/reports?project=${pick(random, account.projects)}&result=${pick(random, VERDICTS)}&sort_by=url&sort=asc`,
  projects_list: () => '/api/v1/projects',
};

/** A path for one account's request; `random` picks its report, project or verdict. */
type AccountPath = (random: () => number, account: ReadAccount) => string;

export interface QueryFloorResult extends Throughput {
  /** statements a request runs, on average over the plan (key lookup, page, count when the page is full) */
  statements_per_request: number;
}

export interface QueryResult extends LoadResult {
  /** an example request */
  example: string;
  /** the same requests' statements straight through the driver (query-floor.ts) */
  query_floor: QueryFloorResult;
  /** throughput / the query floor's throughput */
  ratio_vs_query_floor: number;
}

export type ReadResult = {
  database: DialectName;
  connections: number;
  seed: SeedInfo;
  /** highest resident memory of the server process over all queries */
  server_rss_peak_mb: number;
} & Record<ReadQuery, QueryResult>;

export async function runReadBenchmark(
  dialect: DialectName,
  quick: boolean,
  options: ProcessOptions & { postgresUrl?: string } = {},
): Promise<ReadResult> {
  const durations = quick ? DURATIONS_S.quick : DURATIONS_S.full;
  const planned = quick ? PLANNED_REQUESTS.quick : PLANNED_REQUESTS.full;
  const database = await prepareReadDatabase(dialect, quick ? SIZES.quick : SIZES.full, !quick, options.postgresUrl);
  const scratch = await mkdtemp(join(tmpdir(), 'pagegrade-bench-read-'));
  try {
    const plans = {} as Record<ReadQuery, RequestSpec[]>;
    const examples = {} as Record<ReadQuery, string>;
    for (const query of READ_QUERIES) {
      const random = seededRandom(READ_QUERIES.indexOf(query) + 1);
      examples[query] = READ_PATHS[query](random, database.accounts[0]);
      plans[query] = Array.from({ length: planned }, () => randomAccountRequest(random, database.accounts, READ_PATHS[query]));
    }
    const statements = await captureStatements(database.databaseUrl, plans);
    const shownReportIds = database.accounts.flatMap((account) => account.reportIds);

    const server = await startPagegrade(database.databaseUrl, options);
    const results = {} as Record<ReadQuery, QueryResult>;
    let rssPeak: number;
    try {
      const rss = sampleRss(server.pid);
      for (const query of READ_QUERIES) {
        const statementsFile = join(scratch, `${query}.json`);
        writeFileSync(statementsFile, JSON.stringify(statements[query]));
        const floorProcess = startRounds<FloorRound, FloorSamples>(
          'bench/query-floor.ts',
          { databaseUrl: database.databaseUrl, statementsFile, connections: READ_CONNECTIONS, durationS: durations.measured },
          options,
        );
        await warmReportTables(database.databaseUrl, shownReportIds);
        const serverLoads: LoadSamples[] = [];
        const floorLoads: FloorSamples[] = [];
        for (let index = 0; index < durations.rounds; index++) {
          // Each round starts further along the plan, so the rounds together read as much of it as one long load.
          const shift = Math.floor((index * planned) / durations.rounds);
          const warmUpS = index === 0 ? durations.firstWarmUp : durations.warmUp;
          serverLoads.push(
            await runLoadSamples({
              origin: server.origin,
              connections: READ_CONNECTIONS,
              warmUpS,
              durationS: durations.measured,
              plan: rotate(plans[query], shift),
            }),
          );
          floorLoads.push(await floorProcess.round({ shift, warmUpS }));
        }
        await floorProcess.stop();
        const measured = loadResult(serverLoads);
        const floor = pooledThroughput(floorLoads);
        results[query] = {
          ...measured,
          example: examples[query],
          query_floor: { ...floor, statements_per_request: statementsPerRequest(statements[query]) },
          ratio_vs_query_floor: round(measured.rps / floor.rps, 3),
        };
      }
      rssPeak = rss.stop();
    } finally {
      await server.stop();
    }
    return { database: dialect, connections: READ_CONNECTIONS, seed: database.seed, server_rss_peak_mb: rssPeak, ...results };
  } finally {
    await rm(scratch, { recursive: true, force: true });
    await database.dispose();
  }
}

/** `items` from index `shift` on, then its start. */
function rotate<T>(items: readonly T[], shift: number): T[] {
  return [...items.slice(shift), ...items.slice(0, shift)];
}

/** A request by a random account, with its API key, for the path made for it. */
function randomAccountRequest(random: () => number, accounts: readonly ReadAccount[], pathFor: AccountPath): RequestSpec {
  const account = pick(random, accounts);
  return { path: pathFor(random, account), headers: { authorization: `Bearer ${account.apiKey}` } };
}

function statementsPerRequest({ requests, plan }: StatementPlan): number {
  return round(plan.reduce((sum, index) => sum + requests[index].length, 0) / plan.length, 2);
}
