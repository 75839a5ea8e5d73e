import SqliteDatabase from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { withValueBlindPlaceholders } from './sqlite-value-blind-sql.ts';

describe('withValueBlindPlaceholders', () => {
  it('puts a unary plus before every placeholder', () => {
    expect(withValueBlindPlaceholders('select id from reports where user_id = ? and project in (?, ?) limit ? offset ?')).toBe(
      'select id from reports where user_id = +? and project in (+?, +?) limit +? offset +?',
    );
    expect(withValueBlindPlaceholders('insert into t (a, b) values (?, ?), (?,?)')).toBe(
      'insert into t (a, b) values (+?, +?), (+?,+?)',
    );
  });

  it('leaves question marks inside quotes and comments alone', () => {
    expect(withValueBlindPlaceholders(`select '?', 'it''s ?', "col?", \`x?\`, [y?] from t where a = ?`)).toBe(
      `select '?', 'it''s ?', "col?", \`x?\`, [y?] from t where a = +?`,
    );
    expect(withValueBlindPlaceholders('select 1 -- why?\nwhere a = ? /* b = ? */ and c = ?')).toBe(
      'select 1 -- why?\nwhere a = +? /* b = ? */ and c = +?',
    );
  });

  it('leaves SQL without placeholders, and an unclosed quote, as it is', () => {
    expect(withValueBlindPlaceholders('select count(*) from t')).toBe('select count(*) from t');
    expect(withValueBlindPlaceholders("select 'open ?")).toBe("select 'open ?");
    expect(withValueBlindPlaceholders('select ? /* open ?')).toBe('select +? /* open ?');
  });
});

describe('statements with value-blind placeholders', () => {
  let db: SqliteDatabase.Database;
  afterEach(() => db?.close());

  /** Both forms of a statement give the same rows for the same values. */
  function sameRows(sql: string, ...values: unknown[]) {
    const plain = db.prepare(sql).all(...values);
    expect(db.prepare(withValueBlindPlaceholders(sql)).all(...values)).toEqual(plain);
    return plain;
  }

  it('answer exactly as the plain statements do: comparisons, affinity, LIKE, IN, LIMIT and OFFSET', () => {
    db = new SqliteDatabase(':memory:');
    db.exec(`
      create table t (id integer primary key, n integer, s text, x);
      create index t_n on t (n, s);
      insert into t (n, s, x) values (1, 'a_b', 1), (2, 'A%C', '2'), (3, '10', null), (10, '2.5', 2.5), (null, null, x'00');
    `);
    // A text value against an INTEGER column and a number against a TEXT column: the column's
    // affinity converts the value either way, since neither ? nor +? has an affinity of its own.
    expect(sameRows('select id from t where n = ? order by id', '2')).toEqual([{ id: 2 }]);
    expect(sameRows('select id from t where s = ? order by id', 2.5)).toEqual([{ id: 4 }]);
    expect(sameRows('select id from t where x = ? order by id', '2')).toEqual([{ id: 2 }]);
    expect(sameRows('select id from t where n > ? and n <= ? order by n', 1, 3)).toEqual([{ id: 2 }, { id: 3 }]);
    expect(sameRows("select id from t where s like ? escape '\\' order by id", '%\\%%')).toEqual([{ id: 2 }]);
    expect(sameRows('select id from t where lower(s) like ? order by id', 'a%')).toHaveLength(2);
    expect(sameRows('select id from t where n in (?, ?) order by id', 10, 3)).toEqual([{ id: 3 }, { id: 4 }]);
    expect(sameRows('select id from t where n is ? order by id', null)).toEqual([{ id: 5 }]);
    expect(sameRows('select id from t order by id limit ? offset ?', 2, 1)).toEqual([{ id: 2 }, { id: 3 }]);
    expect(sameRows('select ? || s as joined from t where id = ?', 'x', 1)).toEqual([{ joined: 'xa_b' }]);
  });

  it('still find rows through the index on the compared column', () => {
    db = new SqliteDatabase(':memory:');
    db.exec('create table t (id integer primary key, n integer, s text); create index t_n on t (n, s)');
    const plan = db
      .prepare(`explain query plan ${withValueBlindPlaceholders('select id from t where n = ? and s > ? order by s limit ?')}`)
      .all(1, 'a', 5) as { detail: string }[];
    expect(plan.map((step) => step.detail).join('\n')).toMatch(/USING COVERING INDEX t_n \(n=\? AND s>\?\)/);
  });

  it('write rows as the plain statements do', () => {
    db = new SqliteDatabase(':memory:');
    db.exec('create table t (id integer primary key, n integer, s text)');
    db.prepare(withValueBlindPlaceholders('insert into t (n, s) values (?, ?), (?, ?)')).run('7', 8, -1, null);
    db.prepare(withValueBlindPlaceholders('update t set s = ? where n = ?')).run('seven', 7);
    expect(db.prepare('select n, typeof(n) as nt, s, typeof(s) as st from t order by id').all()).toEqual([
      { n: 7, nt: 'integer', s: 'seven', st: 'text' },
      { n: -1, nt: 'integer', s: null, st: 'null' },
    ]);
  });
});
