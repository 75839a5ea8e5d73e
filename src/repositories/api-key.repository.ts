// API keys, looked up by the SHA-256 of the secret a request presents.
import type { DbExecutor } from './executor.ts';
import type { ApiKeyRow, NewApiKey } from '../db/tables/api-key.table.ts';

/** An active key with the account it belongs to: what authentication needs, in one query. */
export interface ActiveKeyWithUser {
  key_id: number;
  key_prefix: string;
  label: string | null;
  scope: 'read' | 'write';
  /** the organisation the key is bound to; null: not bound */
  bound_organization_id: number | null;
  user_id: number;
  /** the account's personal organisation */
  personal_organization_id: number;
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
    .innerJoin('organizations', 'organizations.personal_user_id', 'users.id')
    .select([
      'api_keys.id as key_id',
      'api_keys.key_prefix',
      'api_keys.label',
      'api_keys.scope',
      'api_keys.organization_id as bound_organization_id',
      'users.id as user_id',
      'organizations.id as personal_organization_id',
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
      'api_keys.scope',
      'api_keys.organization_id',
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

/** The account's active keys (only those bound to `boundTo` when given), oldest first: a page and the total. */
export async function listActiveKeys(
  db: DbExecutor,
  userId: number,
  options: { boundTo: number | null; limit: number; offset: number },
): Promise<{ rows: ApiKeyRow[]; total: number }> {
  let query = db.selectFrom('api_keys').where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (options.boundTo !== null) query = query.where('organization_id', '=', options.boundTo);
  const rows = await query.selectAll().orderBy('id').limit(options.limit).offset(options.offset).execute();
  const { count } = await query.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
  return { rows, total: Number(count) };
}

/** Revokes the account's active key with this prefix (bound to `boundTo` when given); the row revoked, if any. */
export async function revokeOwnKey(db: DbExecutor, userId: number, prefix: string, boundTo: number | null, now: string): Promise<ApiKeyRow | undefined> {
  let query = db
    .updateTable('api_keys')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('key_prefix', '=', prefix)
    .where('revoked_at', 'is', null);
  if (boundTo !== null) query = query.where('organization_id', '=', boundTo);
  return query.returningAll().executeTakeFirst();
}
