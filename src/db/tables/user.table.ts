import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

export interface UsersTable {
  id: Generated<number>;
  /** stored lower-case, unique */
  email: string;
  /** 0 or 1 (SQLite has no boolean) */
  is_admin: number;
  created_at: string;
  /** moves in every transaction that changes the account's reports or projects; keys kept search counts and list answers */
  reports_version: Generated<number>;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
