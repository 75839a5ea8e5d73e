// Read benchmark: the API's read queries through the real server (its own process) over a seeded
// database (a million reports unless told otherwise), each request by a random account (and report,
// project, verdict), drawn in advance. Per query, two loads, made by a load process of its own (one
// for every load on a database, load.ts startLoadRounds):
// - open loop (open-loop.ts), the target's: OPEN_LOOP_RATE requests a second on a fixed schedule,
//   whatever the answers, each timed from when it was due, so a server that falls behind shows it;
// - closed loop (autocannon): READ_CONNECTIONS connections each sending its next request as the last
//   is answered, reported beside it: the most the server answers a second, and its latency with ten
//   requests always in flight.
// The closed loop takes turns with the query floor (query-floor.ts): the same planned requests' SQL
// statements, taken from the server's own code (read-statements.ts), run straight through the driver
// in a process of its own, a few seconds each over several rounds (DURATIONS_S), so that both see the
// machine alike (on this benchmark's VMs the same load's rate moves by a third from one ten-second
// stretch to the next). Their ratio is reported, not a target. The open loop runs last, on the server
// the rounds have warmed. Before each query the tables are read into memory (warm-cache.ts).
import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RequestSpec } from 'autocannon';
import type { DialectName } from '../src/db/database.ts';
import { loadResult, startLoadRounds, type LoadResult, type LoadSamples } from './load.ts';
import type { BenchMode } from './mode.ts';
import type { OpenLoopResult } from './open-loop.ts';
import { startPagegrade } from './pagegrade-server.ts';
import { sampleRss, startRounds, threadCpuSeconds, type ProcessOptions } from './processes.ts';
import { pick, seededRandom } from './random.ts';
import { captureStatements, type StatementPlan } from './read-statements.ts';
import { prepareReadDatabase, type ReadAccount, type SeedInfo } from './seed.ts';
import { SEARCH_TERM, type SeedSize } from './seed-rows.ts';
import type { FloorRound, FloorSamples } from './query-floor.ts';
import { pooledThroughput, round, type Throughput } from './stats.ts';
import { warmReportTables } from './warm-cache.ts';

/** The closed loop's connections (autocannon's default). */
export const READ_CONNECTIONS = 10;
/** The open loop's rate, requests a second: the latency target is judged at it. */
export const OPEN_LOOP_RATE = 200;
/** The open loop's connections at most: 64 requests in flight is 320 ms behind schedule at 200/s, and any more wait (timed) for one. */
const OPEN_LOOP_CONNECTIONS = 64;
/** The reports the targets are set at. */
export const TARGET_REPORTS = 1_000_000;
/** At least this many reports are seeded once (minutes) and kept in bench/.cache or a schema of their own; fewer, afresh each run. */
const CACHED_FROM_REPORTS = 100_000;
const SIZES: Record<BenchMode, SeedSize> = {
  smoke: { reports: 600, accounts: 4, projectsPerAccount: 5, corpusPages: 8 },
  quick: { reports: 20_000, accounts: 100, projectsPerAccount: 50 },
  full: { reports: TARGET_REPORTS, accounts: 100, projectsPerAccount: 50 },
};
/**
 * Per query. Closed loop, for the server and its floor alike: the first round's warm-up (code
 * compiled, caches filled), the rounds, and each later round's warm-up and each round's measured
 * seconds (smoke: the server's measured by requests instead, `measuredRequests`, since on a busy
 * machine a load of a fraction of a second may not get its connections open). Open loop: its warm-up
 * (the same schedule, unmeasured) and measured seconds.
 */
const DURATIONS_S: Record<
  BenchMode,
  { firstWarmUp: number; rounds: number; warmUp: number; measured: number; measuredRequests?: number; openWarmUp: number; open: number }
> = {
  smoke: { firstWarmUp: 0.05, rounds: 1, warmUp: 0, measured: 0.05, measuredRequests: 40, openWarmUp: 0.05, open: 0.25 },
  quick: { firstWarmUp: 0.5, rounds: 2, warmUp: 0.25, measured: 0.5, openWarmUp: 1, open: 3 },
  full: { firstWarmUp: 3, rounds: 4, warmUp: 1, measured: 3, openWarmUp: 2, open: 30 },
};
/**
 * Requests drawn for each query, sent over and over. Full: the accounts, projects, verdicts and report
 * ids make 15,000 combinations at most, and a plan this long holds most of them (about 10,000 of the
 * filtered list's), so cycling it changes little of what is read. Shorter in the other modes, since
 * each distinct request is also sent once to capture its statements (read-statements.ts).
 */
const PLANNED_REQUESTS: Record<BenchMode, number> = { smoke: 32, quick: 1_024, full: 16_384 };

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

export interface QueryResult {
  /** an example request */
  example: string;
  /** OPEN_LOOP_RATE requests a second on schedule: the target's figures */
  open_loop: OpenLoopResult;
  /**
   * The server's main thread during the open loop (warm-up included): the share of the wall time it was
   * on a CPU, and its CPU milliseconds per request sent. Near 1, requests queue for the event loop.
   */
  open_loop_main_thread: { busy: number; cpu_ms_per_request: number };
  /** READ_CONNECTIONS connections, each sending its next request once the last is answered */
  closed_loop: LoadResult;
  /** the same requests' statements straight through the driver (query-floor.ts), taking turns with the closed loop */
  query_floor: QueryFloorResult;
  /** closed-loop throughput / the query floor's throughput (reported, not a target) */
  ratio_vs_query_floor: number;
}

export type ReadResult = {
  database: DialectName;
  /** the closed loop's */
  connections: number;
  open_loop_rate: number;
  seed: SeedInfo;
  /** highest resident memory of the server process over all queries */
  server_rss_peak_mb: number;
} & Record<ReadQuery, QueryResult>;

export async function runReadBenchmark(
  dialect: DialectName,
  mode: BenchMode,
  options: ProcessOptions & { postgresUrl?: string; reports?: number } = {},
): Promise<ReadResult> {
  const durations = DURATIONS_S[mode];
  const planned = PLANNED_REQUESTS[mode];
  const size = { ...SIZES[mode], ...(options.reports === undefined ? {} : { reports: options.reports }) };
  const database = await prepareReadDatabase(dialect, size, size.reports >= CACHED_FROM_REPORTS, options.postgresUrl);
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
    // One floor for every query, as one server answers them all, and one load process.
    const floorProcess = startRounds<FloorRound, FloorSamples>(
      'bench/query-floor.ts',
      { databaseUrl: database.databaseUrl, connections: READ_CONNECTIONS, durationS: durations.measured },
      options,
    );
    const load = startLoadRounds();
    const results = {} as Record<ReadQuery, QueryResult>;
    let rssPeak: number;
    try {
      const rss = sampleRss(server.pid);
      for (const query of READ_QUERIES) {
        const statementsFile = join(scratch, `${query}.statements.json`);
        writeFileSync(statementsFile, JSON.stringify(statements[query]));
        const planFile = join(scratch, `${query}.plan.json`);
        writeFileSync(planFile, JSON.stringify(plans[query]));
        await warmReportTables(database.databaseUrl, shownReportIds);
        const serverLoads: LoadSamples[] = [];
        const floorLoads: FloorSamples[] = [];
        for (let index = 0; index < durations.rounds; index++) {
          // Each round starts further along the plan, so the rounds together read as much of it as one long load.
          const shift = Math.floor((index * planned) / durations.rounds);
          const warmUpS = index === 0 ? durations.firstWarmUp : durations.warmUp;
          serverLoads.push(
            await load.closed({
              origin: server.origin,
              connections: READ_CONNECTIONS,
              warmUpS,
              ...(durations.measuredRequests === undefined ? { durationS: durations.measured } : { amount: durations.measuredRequests }),
              planFile,
              shift,
            }),
          );
          floorLoads.push(await floorProcess.round({ statementsFile, shift, warmUpS }));
        }
        const closedLoop = loadResult(serverLoads);
        const floor = pooledThroughput(floorLoads);
        const mainCpuBefore = threadCpuSeconds(server.pid);
        const openStarted = performance.now();
        const openLoop = await load.open({
          origin: server.origin,
          rate: OPEN_LOOP_RATE,
          warmUpS: durations.openWarmUp,
          durationS: durations.open,
          connections: OPEN_LOOP_CONNECTIONS,
          planFile,
        });
        const mainCpuS = threadCpuSeconds(server.pid) - mainCpuBefore;
        const sent = OPEN_LOOP_RATE * (durations.openWarmUp + durations.open);
        results[query] = {
          example: examples[query],
          open_loop: openLoop,
          open_loop_main_thread: {
            busy: round(mainCpuS / ((performance.now() - openStarted) / 1000), 3),
            cpu_ms_per_request: round((mainCpuS * 1000) / sent, 2),
          },
          closed_loop: closedLoop,
          query_floor: { ...floor, statements_per_request: statementsPerRequest(statements[query]) },
          ratio_vs_query_floor: round(closedLoop.rps / floor.rps, 3),
        };
      }
      rssPeak = rss.stop();
      await Promise.all([floorProcess.stop(), load.stop()]);
    } finally {
      // After a failure, stopped here (once stopped, a stop does nothing), their own errors left out for it.
      await Promise.allSettled([floorProcess.stop(), load.stop()]);
      await server.stop();
    }
    return {
      database: dialect,
      connections: READ_CONNECTIONS,
      open_loop_rate: OPEN_LOOP_RATE,
      seed: database.seed,
      server_rss_peak_mb: rssPeak,
      ...results,
    };
  } finally {
    await rm(scratch, { recursive: true, force: true });
    await database.dispose();
  }
}

/** A request by a random account, with its API key, for the path made for it. */
function randomAccountRequest(random: () => number, accounts: readonly ReadAccount[], pathFor: AccountPath): RequestSpec {
  const account = pick(random, accounts);
  return { path: pathFor(random, account), headers: { authorization: `Bearer ${account.apiKey}` } };
}

function statementsPerRequest({ requests, plan }: StatementPlan): number {
  return round(plan.reduce((sum, index) => sum + requests[index].length, 0) / plan.length, 2);
}
