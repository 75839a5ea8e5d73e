import type { Generated, Insertable, Selectable } from 'kysely';

/** A browser signed in to the dashboard with an API key. */
export interface WebSessionsTable {
  id: Generated<number>;
  /** SHA-256 hex of the random token in the session cookie; the token itself is never stored */
  token_hash: string;
  user_id: number;
  /** the API key the browser signed in with: revoking it ends the session */
  api_key_id: number;
  /** the dashboard's current organisation; null: the account's personal one */
  organization_id: Generated<number | null>;
  created_at: string;
  /** ISO-8601 UTC; the session ends then whatever happens */
  expires_at: string;
}

export type NewWebSession = Insertable<WebSessionsTable>;
