import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

export interface ApiKeysTable {
  id: Generated<number>;
  user_id: number;
  /** SHA-256 hex of the secret; the secret itself is never stored */
  key_hash: string;
  /** first 12 characters of the secret, to recognise a key when listing or revoking it */
  key_prefix: string;
  label: string | null;
  /** write: every request; read: GET and HEAD only */
  scope: Generated<'read' | 'write'>;
  /** bound: the key acts only in this organisation; null: as the request names one (docs/organisations.md) */
  organization_id: number | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export type ApiKeyRow = Selectable<ApiKeysTable>;
export type NewApiKey = Insertable<ApiKeysTable>;
