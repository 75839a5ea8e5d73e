import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

export interface UsersTable {
  id: Generated<number>;
  /** stored lower-case, unique */
  email: string;
  /** 0 or 1 (SQLite has no boolean) */
  is_admin: number;
  created_at: string;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
