// API keys, looked up by the SHA-256 of the secret a request presents.
import { directDialectOf, preparedRead } from '../db/prepared-reads.ts';
import { batchedPerTurn } from '../db/batched-per-turn.ts';
import { keptUntilChange } from '../db/kept-until-change.ts';
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
  /** the account's reports version as this request found it (reports-version.ts) */
  reports_version: number;
}

/** A key as listed for people: never its hash. */
export type ListedApiKey = Omit<ApiKeyRow, 'key_hash'> & { email: string };

export async function insertApiKey(db: DbExecutor, key: Omit<NewApiKey, 'id'>): Promise<ApiKeyRow> {
  return db.insertInto('api_keys').values(key).returningAll().executeTakeFirstOrThrow();
}

/**
 * Every API request asks this first: kept while nothing in the database changes on SQLite
 * (kept-until-change.ts); on PostgreSQL the lookups of one event-loop turn share a query (batched-per-turn.ts).
 */
export const findActiveKeyWithUserByHash: (db: DbExecutor, keyHash: string) => Promise<ActiveKeyWithUser | undefined> =
  keptUntilChange(async (db, keyHash) => {
    if (directDialectOf(db) === 'postgres') {
      const found = await findInTurnsBatch(db, keyHash);
      if (!found) return undefined;
      const { key_hash: _keyHash, ...key } = found;
      return key;
    }
    const [found] = await readActiveKey(db, null, { keyHash });
    return found;
  });

function activeKeys(db: DbExecutor) {
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
      'users.reports_version',
    ])
    .where('api_keys.revoked_at', 'is', null);
}

const readActiveKey = preparedRead((db, _shape: null, p: { keyHash: string }) =>
  activeKeys(db).where('api_keys.key_hash', '=', p.keyHash),
);

/** PostgreSQL only (= any of an array). */
const readActiveKeys = preparedRead((db, _shape: null, p: { keyHashes: string[] }) =>
  activeKeys(db)
    .select('api_keys.key_hash')
    .where((eb) => eb('api_keys.key_hash', '=', eb.fn.any(eb.val(p.keyHashes)))),
);

const findInTurnsBatch = batchedPerTurn(
  (db, keyHashes) => readActiveKeys(db, null, { keyHashes }),
  (row) => row.key_hash,
);

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
