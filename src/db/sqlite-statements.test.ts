import SqliteDatabase from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { reusingStatements } from './sqlite-statements.ts';

describe('statements compiled once per SQL text', () => {
  const database = new SqliteDatabase(':memory:');
  afterEach(() => database.exec('drop table if exists t'));

  it('hands back the same compiled statement for the same text, bound to new values each run', () => {
    const db = reusingStatements(database);
    database.exec('create table t (n integer)');
    const insert = db.prepare('insert into t (n) values (?)');
    expect(db.prepare('insert into t (n) values (?)')).toBe(insert);
    for (const n of [1, 2, 3]) (db.prepare('insert into t (n) values (?)') as SqliteDatabase.Statement).run(n);
    const sum = db.prepare('select sum(n) as total from t where n >= ?') as SqliteDatabase.Statement;
    expect(sum.all(2)).toEqual([{ total: 5 }]);
    expect(sum.all(1)).toEqual([{ total: 6 }]);
  });

  it('keeps working when the schema changes under a kept statement', () => {
    const db = reusingStatements(database);
    database.exec('create table t (n integer)');
    database.exec('insert into t values (1)');
    const select = db.prepare('select * from t') as SqliteDatabase.Statement;
    expect(select.all()).toEqual([{ n: 1 }]);
    database.exec('alter table t add column m integer default 7');
    expect((db.prepare('select * from t') as SqliteDatabase.Statement).all()).toEqual([{ n: 1, m: 7 }]);
  });

  it('keeps at most 500 texts, letting the oldest go', () => {
    const db = reusingStatements(database);
    const first = db.prepare('select 0');
    for (let n = 1; n <= 500; n += 1) db.prepare(`select ${n}`);
    expect(db.prepare('select 500')).toBe(db.prepare('select 500'));
    expect(db.prepare('select 0')).not.toBe(first);
  });
});
