// The API's hot reads (authentication, list pages and their counts, one report) compiled once per
// query shape and run straight on the driver. Built, compiled and executed by Kysely on every request,
// each of those queries cost about 50 µs of CPU more than SQLite took to answer it, three times per
// list request. The SQL still comes from Kysely's builder, so each query has one definition for both
// dialects; what is skipped is rebuilding and recompiling it per request and the executor's hand-off.
import type { Compilable, Kysely } from 'kysely';
import type { Database, DialectName } from './database.ts';
import type { DbExecutor } from '../repositories/executor.ts';

/** Runs a compiled read on the database's own connection(s), bypassing Kysely's executor. */
export interface DirectReader {
  dialect: DialectName;
  /** undefined: it cannot run now (SQLite in a transaction); the query goes through Kysely instead. */
  all(sql: string, parameters: readonly unknown[]): Promise<unknown[]> | unknown[] | undefined;
  /**
   * A text that is the same between two calls only if nothing in the database changed in between, by
   * this process or any other; undefined where that cannot be told now (see kept-until-change.ts).
   */
  changeStamp?(): string | undefined;
}

const readers = new WeakMap<object, DirectReader>();

/** Called once by createDb; transactions are other objects, so they never find a reader. */
export function attachDirectReader(db: Kysely<Database>, reader: DirectReader): void {
  readers.set(db, reader);
}

/** The dialect of a database's own connection(s); undefined for a transaction. */
export function directDialectOf(db: DbExecutor): DialectName | undefined {
  return readers.get(db)?.dialect;
}

/** Whether the database has a change stamp at all (SQLite's own connection; never a transaction). */
export function hasChangeStamp(db: DbExecutor): boolean {
  return readers.get(db)?.changeStamp !== undefined;
}

/** The database's change stamp (DirectReader.changeStamp); undefined for a transaction or PostgreSQL. */
export function changeStampOf(db: DbExecutor): string | undefined {
  return readers.get(db)?.changeStamp?.();
}

/** Stands in for a parameter while a query shape is compiled; replaced by the value on each run. */
class Parameter {
  constructor(readonly name: string) {}
}

const PARAMETERS = new Proxy({}, { get: (_target, name) => new Parameter(String(name)) });

interface PreparedShape {
  sql: string;
  /** a Parameter for each value the caller gives; anything else is a constant of the shape */
  slots: unknown[];
}

/**
 * `build(db, shape, params)` must treat every param as an opaque value handed to Kysely (compared,
 * limited, bound), never inspect it: while compiling, the params are placeholders. Everything that
 * changes the SQL text (which filters apply, sort column and direction) belongs in `shape`.
 */
export function preparedRead<Shape, Params extends object, Row>(
  build: (db: DbExecutor, shape: Shape, params: Params) => Compilable<Row>,
): (db: DbExecutor, shape: Shape, params: Params) => Promise<Row[]> {
  const shapesByDialect = new Map<DialectName, Map<string, PreparedShape>>();

  function prepared(db: DbExecutor, dialect: DialectName, shape: Shape): PreparedShape {
    let shapes = shapesByDialect.get(dialect);
    if (!shapes) shapesByDialect.set(dialect, (shapes = new Map()));
    const key = JSON.stringify(shape);
    let found = shapes.get(key);
    if (!found) {
      const compiled = build(db, shape, PARAMETERS as Params).compile();
      found = { sql: compiled.sql, slots: [...compiled.parameters] };
      shapes.set(key, found);
    }
    return found;
  }

  return async (db, shape, params) => {
    const reader = readers.get(db);
    if (reader) {
      const { sql, slots } = prepared(db, reader.dialect, shape);
      const values = slots.map((slot) => (slot instanceof Parameter ? valueOf(params, slot.name) : slot));
      const rows = await reader.all(sql, values);
      if (rows !== undefined) return rows as Row[];
    }
    return (await db.executeQuery(build(db, shape, params).compile())).rows;
  };
}

function valueOf(params: object, name: string): unknown {
  const value = (params as Record<string, unknown>)[name];
  if (value === undefined) throw new Error(`prepared read: no value for parameter "${name}"`);
  return value;
}
