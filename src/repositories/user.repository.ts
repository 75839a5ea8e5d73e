// Accounts. Emails are stored lower-case so uniqueness and look-up ignore case.
import type { DbExecutor } from './executor.ts';
import type { NewUser, UserRow } from '../db/tables/user.table.ts';

export async function insertUser(db: DbExecutor, user: Omit<NewUser, 'id'>): Promise<UserRow> {
  return db
    .insertInto('users')
    .values({ ...user, email: user.email.toLowerCase() })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findUserById(db: DbExecutor, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findUserByEmail(db: DbExecutor, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
}

export async function listUsers(db: DbExecutor): Promise<UserRow[]> {
  return db.selectFrom('users').selectAll().orderBy('id').execute();
}

export async function countUsers(db: DbExecutor): Promise<number> {
  const { count } = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return count;
}
