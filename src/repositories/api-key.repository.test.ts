import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { forEachDialect } from '../../test/support/databases.ts';
import type { DbExecutor } from './executor.ts';
import { generateApiKey, hashApiKey } from '../security/hashing.ts';
import {
  findActiveKeyWithUserByHash,
  insertApiKey,
  listApiKeys,
  revokeApiKeyById,
  revokeApiKeyByPrefix,
  touchApiKeyLastUsed,
} from './api-key.repository.ts';
import { insertUser } from './user.repository.ts';

const CREATED = '2026-11-21T10:00:00.000Z';
const LATER = '2026-11-21T11:00:00.000Z';

async function newUser(db: DbExecutor, isAdmin = 0) {
  return insertUser(db, { email: `${randomUUID()}@example.com`, is_admin: isAdmin, created_at: CREATED });
}

async function newKey(db: DbExecutor, userId: number, label: string | null = null) {
  const secret = generateApiKey();
  const row = await insertApiKey(db, {
    user_id: userId,
    key_hash: hashApiKey(secret),
    key_prefix: secret.slice(0, 12),
    label,
    created_at: CREATED,
    last_used_at: null,
    revoked_at: null,
  });
  return { secret, row };
}

forEachDialect('api key repository', (database) => {
  it('finds an active key with its account by the hash of the secret', async () => {
    const { db } = database();
    const user = await newUser(db, 1);
    const { secret, row } = await newKey(db, user.id, 'ci');
    expect(await findActiveKeyWithUserByHash(db, hashApiKey(secret))).toEqual({
      key_id: row.id,
      key_prefix: secret.slice(0, 12),
      label: 'ci',
      scope: 'write',
      bound_organization_id: null,
      user_id: user.id,
      personal_organization_id: user.organization_id,
      email: user.email,
      is_admin: 1,
      user_created_at: CREATED,
    });
    expect(await findActiveKeyWithUserByHash(db, hashApiKey(`${secret}x`))).toBeUndefined();
  });

  it('lookups made at once each find their own key', async () => {
    const { db } = database();
    const alice = await newUser(db);
    const bob = await newUser(db, 1);
    const aliceKey = await newKey(db, alice.id);
    const bobKey = await newKey(db, bob.id);
    const revoked = await newKey(db, bob.id);
    await revokeApiKeyById(db, revoked.row.id, CREATED);
    const found = await Promise.all(
      [bobKey, aliceKey, revoked, bobKey].map(({ secret }) => findActiveKeyWithUserByHash(db, hashApiKey(secret))),
    );
    expect(found.map((key) => key && [key.key_id, key.user_id, key.is_admin])).toEqual([
      [bobKey.row.id, bob.id, 1],
      [aliceKey.row.id, alice.id, 0],
      undefined,
      [bobKey.row.id, bob.id, 1],
    ]);
    expect(Object.keys(found[0]!)).not.toContain('key_hash');
  });

  it('revokes by prefix and by id; revoked keys no longer authenticate and keep their revocation time', async () => {
    const { db } = database();
    const user = await newUser(db);
    const byPrefix = await newKey(db, user.id);
    const byId = await newKey(db, user.id);
    const untouched = await newKey(db, user.id);

    expect(await revokeApiKeyByPrefix(db, byPrefix.secret.slice(0, 12), CREATED)).toBe(1);
    expect(await revokeApiKeyByPrefix(db, byPrefix.secret.slice(0, 12), LATER)).toBe(0);
    expect(await revokeApiKeyById(db, byId.row.id, CREATED)).toBe(1);
    expect(await revokeApiKeyById(db, byId.row.id, LATER)).toBe(0);

    expect(await findActiveKeyWithUserByHash(db, hashApiKey(byPrefix.secret))).toBeUndefined();
    expect(await findActiveKeyWithUserByHash(db, hashApiKey(byId.secret))).toBeUndefined();
    expect(await findActiveKeyWithUserByHash(db, hashApiKey(untouched.secret))).toBeDefined();
    const revokedAt = (await listApiKeys(db, user.id)).map((key) => key.revoked_at);
    expect(revokedAt).toEqual([CREATED, CREATED, null]);
  });

  it("lists one account's keys, or everyone's, without hashes", async () => {
    const { db } = database();
    const alice = await newUser(db);
    const bob = await newUser(db);
    const aliceKey = await newKey(db, alice.id, 'laptop');
    const bobKey = await newKey(db, bob.id);

    const aliceKeys = await listApiKeys(db, alice.id);
    expect(aliceKeys).toEqual([
      {
        id: aliceKey.row.id,
        user_id: alice.id,
        key_prefix: aliceKey.secret.slice(0, 12),
        label: 'laptop',
        scope: 'write',
        organization_id: null,
        created_at: CREATED,
        last_used_at: null,
        revoked_at: null,
        email: alice.email,
      },
    ]);
    const allIds = (await listApiKeys(db)).map((key) => key.id);
    expect(allIds).toEqual(expect.arrayContaining([aliceKey.row.id, bobKey.row.id]));
    expect(allIds).toEqual([...allIds].sort((a, b) => a - b));
  });

  it('records when a key was last used', async () => {
    const { db } = database();
    const user = await newUser(db);
    const { row } = await newKey(db, user.id);
    await newKey(db, user.id);
    await touchApiKeyLastUsed(db, row.id, LATER);
    expect((await listApiKeys(db, user.id)).map((key) => key.last_used_at)).toEqual([LATER, null]);
  });

  it('enforces the key hash as unique and the owner as an existing account, deleting keys with it', async () => {
    const { db } = database();
    const user = await newUser(db);
    const { row } = await newKey(db, user.id);
    const { id: _existingId, ...sameHash } = row;
    await expect(insertApiKey(db, sameHash)).rejects.toThrow(/unique/i);
    await expect(newKey(db, user.id + 1_000_000)).rejects.toThrow(/foreign key/i);
    await db.deleteFrom('users').where('id', '=', user.id).execute();
    expect(await listApiKeys(db, user.id)).toEqual([]);
  });
});
