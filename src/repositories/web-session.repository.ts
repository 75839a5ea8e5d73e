// Dashboard sessions, looked up by the SHA-256 of the token a browser's cookie presents.
import type { DbExecutor } from './executor.ts';
import type { NewWebSession } from '../db/tables/web-session.table.ts';

/** A live session with the account it belongs to: what every dashboard request needs, in one query. */
export interface ActiveWebSession {
  session_id: number;
  api_key_id: number;
  user_id: number;
  personal_organization_id: number;
  email: string;
  is_admin: number;
  user_created_at: string;
}

export async function insertWebSession(db: DbExecutor, session: Omit<NewWebSession, 'id'>): Promise<void> {
  await db.insertInto('web_sessions').values(session).execute();
}

/** The session, only while it has not expired and the API key it was opened with is not revoked. */
export async function findActiveWebSession(
  db: DbExecutor,
  tokenHash: string,
  now: string,
): Promise<ActiveWebSession | undefined> {
  return db
    .selectFrom('web_sessions')
    .innerJoin('api_keys', 'api_keys.id', 'web_sessions.api_key_id')
    .innerJoin('users', 'users.id', 'web_sessions.user_id')
    .innerJoin('organizations', 'organizations.personal_user_id', 'users.id')
    .select([
      'web_sessions.id as session_id',
      'web_sessions.api_key_id',
      'users.id as user_id',
      'organizations.id as personal_organization_id',
      'users.email',
      'users.is_admin',
      'users.created_at as user_created_at',
    ])
    .where('web_sessions.token_hash', '=', tokenHash)
    .where('web_sessions.expires_at', '>', now)
    .where('api_keys.revoked_at', 'is', null)
    .executeTakeFirst();
}

export async function deleteWebSession(db: DbExecutor, tokenHash: string): Promise<number> {
  const result = await db.deleteFrom('web_sessions').where('token_hash', '=', tokenHash).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function deleteExpiredWebSessions(db: DbExecutor, now: string): Promise<number> {
  const result = await db.deleteFrom('web_sessions').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
