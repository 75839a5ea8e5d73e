// The read benchmark's query floor, run as its own process like the server: each planned request's
// SQL statements, as the server runs them (captured from its own code by read-statements.ts), run
// straight through the driver, one after another, with nothing around them: no HTTP, no key hashing,
// no Kysely, no mapping or serialising rows. The server's throughput over this one is what it adds
// over its own queries. Each statement is prepared and run as Kysely's drivers do it (better-sqlite3
// `prepare(sql).all(parameters)`, pg `query(sql, parameters)` on a client taken from the pool), since
// the server keeps no prepared statements either.
//
// SQLite: one connection in one loop, as the server has: better-sqlite3 runs every statement on the
// thread that asks, so the server's ten requests in flight run their statements one at a time too.
// PostgreSQL: a pool of `connections` clients (the server's pool holds 10, and the load keeps 10
// requests in flight) and as many loops, each running one request's statements at a time. Run on one
// connection, the floor would wait out every loopback round trip with both its process and the backend
// idle, and measure latency instead of what the database can serve to the server's concurrency.
//
// Input (one JSON argument): { databaseUrl, connections, durationS }. It runs in rounds, taking turns
// with the server's load (read.ts): each message { statementsFile, shift, warmUpS } starts one, on the
// StatementPlan in that file (one per query), the plan sent in order from index `shift` (and from its
// start again), warm-up first, as the load process sends its requests; it answers with its
// FloorSamples (each statement set's latency). The process, its connections and their caches last
// across rounds and queries, as the server's do; disconnecting it ends it.
import { readFileSync } from 'node:fs';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { loadConfig } from '../src/config.ts';
import { parseDatabaseUrl } from '../src/db/database.ts';
import type { Statement, StatementPlan } from './read-statements.ts';

interface FloorInput {
  databaseUrl: string;
  connections: number;
  durationS: number;
}

/** One round's request: the query's statements, where in its plan to start, and how long to warm up first. */
export interface FloorRound {
  statementsFile: string;
  shift: number;
  warmUpS: number;
}

type Run = (statement: Statement) => unknown;

/** What the floor prints: each statement set's latency (ms) and the seconds they took in all. */
export interface FloorSamples {
  latencies: number[];
  seconds: number;
}

const input = JSON.parse(process.argv[2]) as FloorInput;
const config = parseDatabaseUrl(input.databaseUrl);

let run: Run;
let loops: number;
let close: () => Promise<void>;
if (config.dialect === 'sqlite') {
  const db = new SqliteDatabase(config.filename);
  // The server's page cache (src/db/database.ts); the other pragmas it sets concern writes.
  db.pragma(`cache_size = -${loadConfig(process.env).sqliteCacheMb * 1024}`);
  run = ({ sql, parameters }) => db.prepare(sql).all(parameters);
  loops = 1;
  close = async () => {
    db.close();
  };
} else {
  const pool = new pg.Pool({ connectionString: config.connectionString, max: input.connections });
  run = ({ sql, parameters }) => pool.query(sql, [...parameters]);
  loops = input.connections;
  close = () => pool.end();
}

let sent = 0;
/**
 * Sends planned requests' statements from `loops` loops until `deadline`, their latencies to
 * `latencies`; a measured load sends at least one from each loop (a round short enough to end before
 * it began would measure nothing).
 */
async function load({ requests, plan }: StatementPlan, deadline: number, latencies: number[] | null): Promise<void> {
  const loop = async () => {
    let count = 0;
    while (performance.now() < deadline || (latencies && count === 0)) {
      const statements = requests[plan[sent++ % plan.length]];
      const started = performance.now();
      for (const statement of statements) await run(statement);
      latencies?.push(performance.now() - started);
      count++;
    }
  };
  await Promise.all(Array.from({ length: loops }, loop));
}

/** Each query's statements, read from its file once. */
const statementPlans = new Map<string, StatementPlan>();

async function runRound({ statementsFile, shift, warmUpS }: FloorRound): Promise<FloorSamples> {
  let statements = statementPlans.get(statementsFile);
  if (!statements) {
    statements = JSON.parse(readFileSync(statementsFile, 'utf8')) as StatementPlan;
    statementPlans.set(statementsFile, statements);
  }
  sent = shift;
  await load(statements, performance.now() + warmUpS * 1000, null);
  const latencies: number[] = [];
  const started = performance.now();
  await load(statements, started + input.durationS * 1000, latencies);
  return { latencies, seconds: (performance.now() - started) / 1000 };
}

process.on('message', (round: FloorRound) => {
  void runRound(round).then((samples) => process.send!(samples));
});
process.on('disconnect', () => void close());
