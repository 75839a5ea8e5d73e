// Prepared reads answer exactly what Kysely would, compile each shape once, and never read another
// transaction's uncommitted rows through SQLite's single shared connection.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { forEachDialect } from '../../test/support/databases.ts';
import { lowerCaseColumnLike, containsPattern } from '../repositories/contains-search.ts';
import type { DbExecutor } from '../repositories/executor.ts';
import { insertUser } from '../repositories/user.repository.ts';
import { preparedRead } from './prepared-reads.ts';

const NOW = '2026-11-22T10:00:00.000Z';

interface Shape {
  search: boolean;
  sort: 'asc' | 'desc';
}
interface Params {
  tag: string;
  pattern?: string;
  limit: number;
}

/** Users whose e-mail holds `tag` (and, with a search, the pattern too), by id. */
function usersQuery(db: DbExecutor, shape: Shape, p: Params) {
  let query = db
    .selectFrom('users')
    .select(['id', 'email'])
    .where('email', 'like', p.tag);
  if (shape.search) query = query.where(lowerCaseColumnLike('email', p.pattern as string));
  return query.orderBy('id', shape.sort).limit(p.limit);
}

async function addUsers(db: DbExecutor, tag: string, names: string[]): Promise<void> {
  for (const name of names) await insertUser(db, { email: `${name}-${tag}@example.com`, is_admin: 0, created_at: NOW });
}

forEachDialect('prepared reads', (database) => {
  it('answers what Kysely answers, for every shape and parameter, compiling each shape once', async () => {
    const { db } = database();
    const tag = randomUUID();
    await addUsers(db, tag, ['ann', 'bob', 'anna', 'carl', 'joanne']);
    let builds = 0;
    const read = preparedRead((db, shape: Shape, p: Params) => {
      builds += 1;
      return usersQuery(db, shape, p);
    });
    const cases: [Shape, Params][] = [
      [{ search: false, sort: 'asc' }, { tag: `%${tag}%`, limit: 10 }],
      [{ search: false, sort: 'asc' }, { tag: `%${tag}%`, limit: 2 }],
      [{ search: false, sort: 'desc' }, { tag: `%${tag}%`, limit: 3 }],
      [{ search: true, sort: 'asc' }, { tag: `%${tag}%`, pattern: containsPattern('ANN'), limit: 10 }],
      [{ search: true, sort: 'asc' }, { tag: `%${tag}%`, pattern: containsPattern('o'), limit: 10 }],
      [{ search: true, sort: 'desc' }, { tag: `%${tag}%`, pattern: containsPattern('nobody'), limit: 10 }],
    ];
    for (const [shape, params] of cases) {
      expect(await read(db, shape, params)).toEqual(await usersQuery(db, shape, params).execute());
    }
    expect((await read(db, cases[3][0], cases[3][1])).map((user) => user.email.split('-')[0])).toEqual(['ann', 'anna', 'joanne']);
    // Four shapes (search or not, each way): each compiled once; repeats and new values reuse it.
    expect(builds).toBe(4);
  });

  it('runs inside a transaction through Kysely, seeing the transaction\'s own rows', async () => {
    const { db } = database();
    const tag = randomUUID();
    const read = preparedRead(usersQuery);
    const shape: Shape = { search: false, sort: 'asc' };
    await db.transaction().execute(async (trx) => {
      await addUsers(trx, tag, ['inside']);
      expect(await read(trx, shape, { tag: `%${tag}%`, limit: 10 })).toHaveLength(1);
    });
  });

  it('says which parameter a caller left out', async () => {
    const { db } = database();
    const read = preparedRead(usersQuery);
    await expect(read(db, { search: true, sort: 'asc' }, { tag: '%', limit: 1 })).rejects.toThrow(
      'prepared read: no value for parameter "pattern"',
    );
  });

  it('never reads the uncommitted rows of a transaction in progress', async () => {
    const { db } = database();
    const tag = randomUUID();
    const read = preparedRead(usersQuery);
    const shape: Shape = { search: false, sort: 'asc' };
    let readDuring: Promise<unknown[]> | undefined;
    const transaction = db.transaction().execute(async (trx) => {
      await addUsers(trx, tag, ['rolled-back']);
      // Waiting on something else with the transaction open: other requests run meanwhile.
      readDuring = read(db, shape, { tag: `%${tag}%`, limit: 10 });
      await sleep(20);
      throw new Error('roll back');
    });
    await expect(transaction).rejects.toThrow('roll back');
    expect(await readDuring).toEqual([]);
  });
});
