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
// Input (one JSON argument): { databaseUrl, statementsFile, connections, warmUpS, durationS }; the
// file holds a StatementPlan. The plan is sent in order and from its start again, warm-up first, as the
// load process sends its requests. Prints its Throughput (requests: statement sets) as JSON.
import { readFileSync } from 'node:fs';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { loadConfig } from '../src/config.ts';
import { parseDatabaseUrl } from '../src/db/database.ts';
import type { Statement, StatementPlan } from './read-statements.ts';
import { throughput } from './stats.ts';

interface FloorInput {
  databaseUrl: string;
  statementsFile: string;
  connections: number;
  warmUpS: number;
  durationS: number;
}

type Run = (statement: Statement) => unknown;

const input = JSON.parse(process.argv[2]) as FloorInput;
const { requests, plan } = JSON.parse(readFileSync(input.statementsFile, 'utf8')) as StatementPlan;
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
/** Sends planned requests' statements from `loops` loops until `deadline`; their latencies go to `latencies`. */
async function load(deadline: number, latencies: number[] | null): Promise<void> {
  const loop = async () => {
    while (performance.now() < deadline) {
      const statements = requests[plan[sent++ % plan.length]];
      const started = performance.now();
      for (const statement of statements) await run(statement);
      latencies?.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: loops }, loop));
}

await load(performance.now() + input.warmUpS * 1000, null);
const latencies: number[] = [];
const started = performance.now();
await load(started + input.durationS * 1000, latencies);
const result = throughput(latencies, (performance.now() - started) / 1000);
await close();
process.stdout.write(`${JSON.stringify(result)}\n`);
