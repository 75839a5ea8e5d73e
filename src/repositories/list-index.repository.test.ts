// The reads behind list indexes: the account order of a server's warm start.
import { expect, it } from 'vitest';
import { forEachDialect } from '../../test/support/databases.ts';
import { newUserId } from '../../test/support/repository-fixtures.ts';
import { readAccountsByRecentKeyUse } from './list-index.repository.ts';

forEachDialect('list index reads', (database) => {
  it('orders accounts by their keys\' last use, newest first, then never-used ones by id', async () => {
    const { db } = database();
    const [never, old, recent, twoKeys] = [await newUserId(db), await newUserId(db), await newUserId(db), await newUserId(db)];
    const key = (userId: number, lastUsedAt: string | null, n: number) => ({
      user_id: userId,
      key_hash: `hash-${userId}-${n}`,
      key_prefix: `pfx${userId}${n}`,
      label: null,
      created_at: '2026-11-01T00:00:00.000Z',
      last_used_at: lastUsedAt,
      revoked_at: null,
    });
    await db
      .insertInto('api_keys')
      .values([
        key(never, null, 1),
        key(old, '2026-11-02T00:00:00.000Z', 1),
        key(recent, '2026-11-20T00:00:00.000Z', 1),
        key(twoKeys, null, 1),
        key(twoKeys, '2026-11-10T00:00:00.000Z', 2),
      ])
      .execute();
    const order = (await readAccountsByRecentKeyUse(db)).filter((id) => [never, old, recent, twoKeys].includes(id));
    expect(order).toEqual([recent, twoKeys, old, never]);
  });
});
