// Some of the read benchmark's queries through one pagegrade server, in the order given, each against
// the static floor of its body, with the CPU each side spent per request (from /proc: the server's
// process and its main thread, the load generator's, and PostgreSQL's processes'). For experiments
// between full runs; the million-report databases must exist (a full `npm run bench` seeds them).
//
//   npx tsx bench/experiments/read-queries.ts sqlite|postgres show,list_default,list_filtered [measured_s] [warm_up_s]
//
// Env: SETTINGS=NAME=value,NAME=value (more server environment, e.g. PAGEGRADE_LIST_INDEX_MB=0);
// DATABASE_URL for PostgreSQL (default postgres://postgres@127.0.0.1:5432/test); FLOOR=0 skips the floors;
// ACCOUNTS=2 seeds (once) and uses a database of that many accounts shaped as the benchmark's (10,000
// reports, 50 projects each): per-request costs without the million-report seed; PROFILE=dir writes a
// V8 CPU profile of the server there.
// `list_filtered_one` asks one account for one project's verdict again and again (kept answers).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLoad, type LoadResult } from '../load.ts';
import { startPagegrade } from '../pagegrade-server.ts';
import { freePort, rssMb, startService } from '../processes.ts';
import { seededRandom } from '../random.ts';
import { asRandomAccounts, READ_PATHS, type AccountPath } from '../read.ts';
import { prepareReadDatabase } from '../seed.ts';

const PATHS: Record<string, AccountPath> = {
  ...READ_PATHS,
  list_filtered_one: (_random, account) => `/api/v1/reports?project=${account.projects[0]}&result=good&sort_by=url&sort=asc`,
};

/** CPU µs a process (or one of its threads) has used, from /proc (clock ticks of 10 ms). */
function cpuMicros(pid: number, thread?: number): number {
  const path = thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`;
  const fields = readFileSync(path, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** CPU µs each PostgreSQL process on this machine has used, by pid (its backends do a query's work). */
function postgresCpuMicros(): Map<number, number> {
  const used = new Map<number, number>();
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number)) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres') used.set(pid, cpuMicros(pid));
    } catch {
      // the process ended meanwhile
    }
  }
  return used;
}

/** What PostgreSQL's processes used since `before` (a process that ended meanwhile is not counted). */
function postgresCpuSince(before: Map<number, number>): number {
  let sum = 0;
  for (const [pid, micros] of postgresCpuMicros()) sum += micros - (before.get(pid) ?? 0);
  return sum;
}

/** Load for `seconds` after a warm-up, with the CPU per request of the server (whole, main thread) and of this process. */
async function measure(origin: string, pid: number, next: Parameters<typeof runLoad>[0]['next'], seconds: number, warmUp: number) {
  // Apart, so the CPU below is the measured load's alone.
  await runLoad({ origin, connections: 10, durationS: warmUp, next });
  const before = { server: cpuMicros(pid), main: cpuMicros(pid, pid), postgres: postgresCpuMicros() };
  const result: LoadResult = await runLoad({ origin, connections: 10, durationS: seconds, next });
  const per = (micros: number) => Math.round(micros / result.requests);
  return {
    rps: Math.round(result.rps),
    p50_ms: result.p50_ms,
    p99_ms: result.p99_ms,
    server_cpu_us: per(cpuMicros(pid) - before.server),
    main_thread_us: per(cpuMicros(pid, pid) - before.main),
    load_cpu_us: result.load_cpu_us,
    postgres_cpu_us: per(postgresCpuSince(before.postgres)),
  };
}

const dialect = process.argv[2] as 'sqlite' | 'postgres';
const queries = (process.argv[3] ?? 'list_filtered').split(',');
const seconds = Number(process.argv[4] ?? 10);
const warmUp = Number(process.argv[5] ?? 3);
for (const query of queries) if (!PATHS[query]) throw new Error(`unknown query ${query}; one of ${Object.keys(PATHS).join(', ')}`);
const settings = Object.fromEntries((process.env.SETTINGS ?? '').split(',').filter(Boolean).map((pair) => pair.split('=', 2)));
const postgresUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const accounts = Number(process.env.ACCOUNTS ?? 100);
const size = { reports: accounts * 10_000, accounts, projectsPerAccount: 50 };
const database = await prepareReadDatabase(dialect, size, true, postgresUrl);

const startedAt = Date.now();
const server = await startPagegrade(database.databaseUrl, { cpuProfDir: process.env.PROFILE }, settings);
console.log(`server ready after ${(Date.now() - startedAt) / 1000} s`);
const bodies: Record<string, string> = {};
try {
  for (const query of queries) {
    const random = seededRandom(7);
    const example = PATHS[query](random, database.accounts[0]);
    const response = await fetch(`${server.origin}${example}`, { headers: { authorization: `Bearer ${database.accounts[0].apiKey}` } });
    bodies[query] = await response.text();
    const result = await measure(server.origin, server.pid, asRandomAccounts(random, database.accounts, PATHS[query]), seconds, warmUp);
    console.log(query, JSON.stringify({ ...result, rss_mb: rssMb(server.pid) }));
  }
} finally {
  await server.stop();
}
if (process.env.FLOOR !== '0') {
  const bodiesFile = join(tmpdir(), `pagegrade-read-queries-${process.pid}.json`);
  writeFileSync(bodiesFile, JSON.stringify(bodies));
  const port = await freePort();
  const floor = await startService('bench/static-floor.ts', port, { PORT: String(port), STATIC_BODIES: bodiesFile }, '/ready');
  try {
    for (const query of queries) console.log(`static ${query}`, JSON.stringify(await measure(floor.origin, floor.pid, () => ({ path: `/static/${query}` }), seconds, 2)));
  } finally {
    await floor.stop();
  }
}
