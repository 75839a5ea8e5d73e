import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { forEachDialect } from '../../test/support/databases.ts';
import { countUsers, findUserByEmail, findUserById, insertUser, listUsers } from './user.repository.ts';

const NOW = '2026-11-21T10:00:00.000Z';
const uniqueEmail = (name: string) => `${name}-${randomUUID()}@Example.COM`;

forEachDialect('user repository', (database) => {
  it('stores the email lower-case and finds the user by id and by email in any case', async () => {
    const { db } = database();
    const email = uniqueEmail('Ada');
    const user = await insertUser(db, { email, is_admin: 1, created_at: NOW });
    expect(user).toEqual({ id: expect.any(Number), email: email.toLowerCase(), is_admin: 1, created_at: NOW, organization_id: expect.any(Number) });
    expect(await findUserById(db, user.id)).toEqual(user);
    expect(await findUserByEmail(db, email.toUpperCase())).toEqual(user);
    expect(await findUserById(db, user.id + 1000)).toBeUndefined();
    expect(await findUserByEmail(db, 'nobody@example.com')).toBeUndefined();
  });

  it('refuses a second account with the same email in another case', async () => {
    const { db } = database();
    const email = uniqueEmail('twice');
    await insertUser(db, { email, is_admin: 0, created_at: NOW });
    await expect(insertUser(db, { email: email.toUpperCase(), is_admin: 0, created_at: NOW })).rejects.toThrow(/unique/i);
  });

  it('lists users by id and counts them', async () => {
    const { db } = database();
    const before = await countUsers(db);
    const first = await insertUser(db, { email: uniqueEmail('first'), is_admin: 0, created_at: NOW });
    const second = await insertUser(db, { email: uniqueEmail('second'), is_admin: 0, created_at: NOW });
    expect(await countUsers(db)).toBe(before + 2);
    const ids = (await listUsers(db)).map((user) => user.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(ids.slice(-2)).toEqual([first.id, second.id]);
  });
});
