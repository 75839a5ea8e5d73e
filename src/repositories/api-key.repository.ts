// API keys, looked up by the SHA-256 of the secret a request presents.
import type { DbExecutor } from './executor.ts';
import type { ApiKeyRow, NewApiKey } from '../db/tables/api-key.table.ts';

/** An active key with the account it belongs to: what authentication needs, in one query. */
export interface ActiveKeyWithUser {
  key_id: number;
  key_prefix: string;
  user_id: number;
  email: string;
  is_admin: number;
  user_created_at: string;
}

/** A key as listed for people: never its hash. */
export type ListedApiKey = Omit<ApiKeyRow, 'key_hash'> & { email: string };

export async function insertApiKey(db: DbExecutor, key: Omit<NewApiKey, 'id'>): Promise<ApiKeyRow> {
  return db.insertInto('api_keys').values(key).returningAll().executeTakeFirstOrThrow();
}

/** Every API request asks this first. */
export async function findActiveKeyWithUserByHash(db: DbExecutor, keyHash: string): Promise<ActiveKeyWithUser | undefined> {
  return db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .select([
      'api_keys.id as key_id',
      'api_keys.key_prefix',
      'users.id as user_id',
      'users.email',
      'users.is_admin',
      'users.created_at as user_created_at',
    ])
    .where('api_keys.key_hash', '=', keyHash)
    .where('api_keys.revoked_at', 'is', null)
    .executeTakeFirst();
}

/** Every key (or one account's), revoked ones included, oldest first. */
export async function listApiKeys(db: DbExecutor, userId?: number): Promise<ListedApiKey[]> {
  let query = db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .select([
      'api_keys.id',
      'api_keys.user_id',
      'api_keys.key_prefix',
      'api_keys.label',
      'api_keys.created_at',
      'api_keys.last_used_at',
      'api_keys.revoked_at',
      'users.email',
    ])
    .orderBy('api_keys.id');
  if (userId !== undefined) query = query.where('api_keys.user_id', '=', userId);
  return query.execute();
}

/** Revokes the active keys whose secret starts with `prefix` (12 characters); returns how many. */
export async function revokeApiKeyByPrefix(db: DbExecutor, prefix: string, now: string): Promise<number> {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: now })
    .where('key_prefix', '=', prefix)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function revokeApiKeyById(db: DbExecutor, id: number, now: string): Promise<number> {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Records a use: one update by primary key (callers throttle how often they call it). */
export async function touchApiKeyLastUsed(db: DbExecutor, id: number, now: string): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: now }).where('id', '=', id).execute();
}
