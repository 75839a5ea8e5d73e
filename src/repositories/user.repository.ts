// Accounts. Emails are stored lower-case so uniqueness and look-up ignore case.
import { inOneTransaction, type DbExecutor } from './executor.ts';
import { insertPersonalOrganization } from './organization.repository.ts';
import type { NewUser, UserRow } from '../db/tables/user.table.ts';

/** A new account with its personal organisation (docs/organisations.md), in one transaction. */
export async function insertUser(db: DbExecutor, user: Omit<NewUser, 'id'>): Promise<UserWithOrganization> {
  return inOneTransaction(db, async (trx) => {
    const row = await trx
      .insertInto('users')
      .values({ ...user, email: user.email.toLowerCase() })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { ...row, organization_id: await insertPersonalOrganization(trx, row, user.created_at) };
  });
}

/** Accounts with their personal organisation's id. */
function usersWithOrganization(db: DbExecutor) {
  return db
    .selectFrom('users')
    .innerJoin('organizations', 'organizations.personal_user_id', 'users.id')
    .selectAll('users')
    .select('organizations.id as organization_id');
}

export type UserWithOrganization = UserRow & { organization_id: number };

export async function findUserById(db: DbExecutor, id: number): Promise<UserWithOrganization | undefined> {
  return usersWithOrganization(db).where('users.id', '=', id).executeTakeFirst();
}

export async function findUserByEmail(db: DbExecutor, email: string): Promise<UserWithOrganization | undefined> {
  return usersWithOrganization(db).where('users.email', '=', email.toLowerCase()).executeTakeFirst();
}

export async function listUsers(db: DbExecutor): Promise<UserWithOrganization[]> {
  return usersWithOrganization(db).orderBy('users.id').execute();
}

export async function countUsers(db: DbExecutor): Promise<number> {
  const { count } = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return count;
}
