// The SQL each read request runs in the server, taken from the server's own code rather than written
// out again: every distinct request of a plan is sent once, with Fastify's inject, to an app built by
// buildApp (what src/server.ts serves, with the benchmark server's settings) on a Kysely whose `log`
// records each statement it runs, compiled, with its parameters. A request's statements are those
// logged while it was answered (requests go one at a time), in order: the key lookup, the page read,
// the count when the page is full, the show's read. The query floor (query-floor.ts) replays them.
//
// Only reads are kept: the one write a read request can make, the key's last_used_at
// (touchApiKeyLastUsed), happens once a minute per key, about a hundred times in a load of 100,000+
// requests, and replayed on every request it would put writes in the floor that the server does not
// make.
import type { RequestSpec } from 'autocannon';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type Dialect } from 'kysely';
import pg from 'pg';
import { loadConfig } from '../src/config.ts';
import { parseDatabaseUrl, type Database } from '../src/db/database.ts';
import { benchServerEnv } from './pagegrade-server.ts';

export interface Statement {
  sql: string;
  parameters: readonly unknown[];
}

/** A plan as statements: each distinct request's statements once, and the plan as indexes into them. */
export interface StatementPlan {
  requests: Statement[][];
  plan: number[];
}

/** Each plan's requests (same order, same length) as the statements the server runs for them. */
export async function captureStatements<Name extends string>(
  databaseUrl: string,
  plans: Record<Name, RequestSpec[]>,
): Promise<Record<Name, StatementPlan>> {
  let current: Statement[] | null = null;
  const db = new Kysely<Database>({
    dialect: rawDialect(databaseUrl),
    log(event) {
      if (event.level !== 'query' || event.query.query.kind !== 'SelectQueryNode') return;
      if (!current) throw new Error(`a statement ran outside any request: ${event.query.sql}`);
      current.push({ sql: event.query.sql, parameters: event.query.parameters });
    },
  });
  const config = loadConfig({ ...benchServerEnv(databaseUrl), PAGEGRADE_ANALYSIS_THREADS: '0' });
  // The whole app, loaded only when the read benchmark runs (bench/run.ts imports this file for every run).
  const { buildApp } = await import('../src/http/app.ts');
  const app = await buildApp(config, {
    database: { db, dialect: parseDatabaseUrl(databaseUrl).dialect, appliedMigrations: [], close: () => db.destroy() },
  });
  try {
    const captured = {} as Record<Name, StatementPlan>;
    for (const name of Object.keys(plans) as Name[]) {
      const requests: Statement[][] = [];
      const indexOf = new Map<string, number>();
      const plan = plans[name].map((request) => {
        const key = JSON.stringify(request);
        let index = indexOf.get(key);
        if (index === undefined) {
          index = requests.length;
          indexOf.set(key, index);
          requests.push([]);
        }
        return index;
      });
      for (const [key, index] of indexOf) {
        const request = JSON.parse(key) as RequestSpec;
        current = requests[index];
        const response = await app.inject({ method: 'GET', url: request.path!, headers: request.headers });
        current = null;
        if (response.statusCode !== 200) throw new Error(`GET ${request.path} answered ${response.statusCode}: ${response.body.slice(0, 200)}`);
        if (requests[index].length === 0) throw new Error(`GET ${request.path} ran no statement`);
      }
      captured[name] = { requests, plan };
    }
    return captured;
  } finally {
    await app.close();
    await db.destroy();
  }
}

/** Kysely on a driver handle of its own (src/db opens its own, with no logging). */
function rawDialect(databaseUrl: string): Dialect {
  const config = parseDatabaseUrl(databaseUrl);
  return config.dialect === 'sqlite'
    ? new SqliteDialect({ database: new SqliteDatabase(config.filename) })
    : new PostgresDialect({ pool: new pg.Pool({ connectionString: config.connectionString, max: 1 }) });
}
