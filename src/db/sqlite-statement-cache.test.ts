import SqliteDatabase from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { withStatementCache } from './sqlite-statement-cache.ts';

describe('withStatementCache', () => {
  let raw: SqliteDatabase.Database;
  afterEach(() => raw?.close());

  function open() {
    raw = new SqliteDatabase(':memory:');
    raw.exec('create table t (n integer); insert into t values (1), (2), (3)');
    return withStatementCache(raw);
  }

  it('hands back the same compiled statement for the same SQL, which runs with new parameters', () => {
    const db = open();
    const first = db.prepare('select n from t where n >= ? order by n');
    const again = db.prepare('select n from t where n >= ? order by n');
    expect(again).toBe(first);
    expect(again.all([2])).toEqual([{ n: 2 }, { n: 3 }]);
    expect(db.prepare('select n from t where n >= ? order by n').all([3])).toEqual([{ n: 3 }]);
  });

  it('compiles each statement with its placeholders hidden from the planner (sqlite-value-blind-sql.ts)', () => {
    const db = open();
    const statement = db.prepare('select n from t where n >= ? order by n limit ?') as unknown as SqliteDatabase.Statement;
    expect(statement.source).toBe('select n from t where n >= +? order by n limit +?');
    expect(statement.all([2, 1])).toEqual([{ n: 2 }]);
  });

  it('sees rows and schema changes made after a statement was compiled', () => {
    const db = open();
    expect(db.prepare('select count(*) as c from t').all([])).toEqual([{ c: 3 }]);
    db.prepare('insert into t values (4)').run([]);
    raw.exec('alter table t add column m integer');
    expect(db.prepare('select count(*) as c from t').all([])).toEqual([{ c: 4 }]);
  });

  it('compiles a fresh statement while the cached one is still being iterated', () => {
    const db = open();
    const iterating = db.prepare('select n from t order by n');
    const rows = iterating.iterate([]);
    expect(rows.next().value).toEqual({ n: 1 });
    const other = db.prepare('select n from t order by n');
    expect(other).not.toBe(iterating);
    expect(other.all([])).toHaveLength(3);
    rows.return?.();
  });

  it('does not keep very long SQL such as multi-row inserts', () => {
    const db = open();
    const sql = `insert into t values ${Array.from({ length: 3000 }, () => '(?)').join(', ')}`;
    const first = db.prepare(sql);
    expect(db.prepare(sql)).not.toBe(first);
  });
});
