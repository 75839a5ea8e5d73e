import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { forEachDialect } from '../../test/support/databases.ts';
import type { DbExecutor } from './executor.ts';
import { generateApiKey, hashApiKey } from '../security/hashing.ts';
import { insertApiKey, revokeApiKeyById } from './api-key.repository.ts';
import { insertUser } from './user.repository.ts';
import {
  deleteExpiredWebSessions,
  deleteWebSession,
  findActiveWebSession,
  insertWebSession,
} from './web-session.repository.ts';

const CREATED = '2026-11-21T10:00:00.000Z';
const NOW = '2026-11-22T10:00:00.000Z';
const EXPIRES = '2026-11-28T10:00:00.000Z';

async function userWithKey(db: DbExecutor) {
  const user = await insertUser(db, { email: `${randomUUID()}@example.com`, is_admin: 0, created_at: CREATED });
  const secret = generateApiKey();
  const key = await insertApiKey(db, {
    user_id: user.id,
    key_hash: hashApiKey(secret),
    key_prefix: secret.slice(0, 12),
    label: null,
    created_at: CREATED,
    last_used_at: null,
    revoked_at: null,
  });
  return { user, key };
}

async function newSession(db: DbExecutor, expiresAt = EXPIRES) {
  const { user, key } = await userWithKey(db);
  const tokenHash = randomUUID();
  await insertWebSession(db, { token_hash: tokenHash, user_id: user.id, api_key_id: key.id, created_at: CREATED, expires_at: expiresAt });
  return { user, key, tokenHash };
}

forEachDialect('web session repository', (database) => {
  it('finds a live session with its account by the token hash', async () => {
    const { db } = database();
    const { user, key, tokenHash } = await newSession(db);
    expect(await findActiveWebSession(db, tokenHash, NOW)).toEqual({
      session_id: expect.any(Number),
      api_key_id: key.id,
      user_id: user.id,
      personal_organization_id: user.organization_id,
      email: user.email,
      is_admin: 0,
      user_created_at: CREATED,
    });
    expect(await findActiveWebSession(db, 'another hash', NOW)).toBeUndefined();
  });

  it('does not find a session that has expired', async () => {
    const { db } = database();
    const { tokenHash } = await newSession(db, NOW);
    expect(await findActiveWebSession(db, tokenHash, NOW)).toBeUndefined();
    expect(await findActiveWebSession(db, tokenHash, '2026-11-22T09:59:59.999Z')).toBeDefined();
  });

  it('does not find a session whose API key was revoked', async () => {
    const { db } = database();
    const { key, tokenHash } = await newSession(db);
    await revokeApiKeyById(db, key.id, NOW);
    expect(await findActiveWebSession(db, tokenHash, NOW)).toBeUndefined();
  });

  it('deletes one session, and the expired ones', async () => {
    const { db } = database();
    const live = await newSession(db);
    const gone = await newSession(db);
    const expired = await newSession(db, '2026-11-22T09:00:00.000Z');
    expect(await deleteWebSession(db, gone.tokenHash)).toBe(1);
    expect(await findActiveWebSession(db, gone.tokenHash, NOW)).toBeUndefined();
    expect(await deleteExpiredWebSessions(db, NOW)).toBeGreaterThanOrEqual(1);
    const remaining = await db.selectFrom('web_sessions').select('token_hash').execute();
    expect(remaining.map((row) => row.token_hash)).toContain(live.tokenHash);
    expect(remaining.map((row) => row.token_hash)).not.toContain(expired.tokenHash);
  });

  it('goes with its user (cascade)', async () => {
    const { db } = database();
    const { user, tokenHash } = await newSession(db);
    await db.deleteFrom('users').where('id', '=', user.id).execute();
    const rows = await db.selectFrom('web_sessions').select('id').where('token_hash', '=', tokenHash).execute();
    expect(rows).toEqual([]);
  });
});
