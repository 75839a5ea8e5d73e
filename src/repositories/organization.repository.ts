// Organisations and their members (docs/organisations.md). A membership is what lets an account see
// anything of an organisation: every look-up here goes through it.
import type { DbExecutor } from './executor.ts';
import type { OrganizationRow, Role } from '../db/tables/organization.table.ts';

/** An organisation as one member sees it. */
export type Membership = OrganizationRow & { role: Role; members_count: number };

/** The personal organisation of a new account: named by its e-mail, the account its owner and only member. */
export async function insertPersonalOrganization(db: DbExecutor, user: { id: number; email: string }, now: string): Promise<number> {
  const { id } = await db
    .insertInto('organizations')
    .values({ name: user.email, personal_user_id: user.id, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  await insertMember(db, id, user.id, 'owner', now);
  return id;
}

export async function insertOrganization(db: DbExecutor, name: string, ownerId: number, now: string): Promise<number> {
  const { id } = await db.insertInto('organizations').values({ name, created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow();
  await insertMember(db, id, ownerId, 'owner', now);
  return id;
}

export async function insertMember(db: DbExecutor, organizationId: number, userId: number, role: Role, now: string): Promise<void> {
  await db.insertInto('organization_members').values({ organization_id: organizationId, user_id: userId, role, added_at: now }).execute();
}

function memberships(db: DbExecutor, userId: number) {
  return db
    .selectFrom('organizations')
    .innerJoin('organization_members', 'organization_members.organization_id', 'organizations.id')
    .selectAll('organizations')
    .select('organization_members.role')
    .select((eb) =>
      eb
        .selectFrom('organization_members as m')
        .whereRef('m.organization_id', '=', 'organizations.id')
        .select((inner) => inner.fn.countAll<number>().as('count'))
        .as('members_count'),
    )
    .where('organization_members.user_id', '=', userId);
}

/** The organisation `organizationId` if `userId` is a member of it. */
export async function findMembership(db: DbExecutor, userId: number, organizationId: number): Promise<Membership | undefined> {
  const row = await memberships(db, userId).where('organizations.id', '=', organizationId).executeTakeFirst();
  return row && { ...row, members_count: Number(row.members_count) };
}

/** The organisations the account is a member of (only `onlyId` when given), by id; a page of them and the total. */
export async function listMemberships(
  db: DbExecutor,
  userId: number,
  options: { onlyId?: number; limit: number; offset: number },
): Promise<{ rows: Membership[]; total: number }> {
  let query = memberships(db, userId);
  if (options.onlyId !== undefined) query = query.where('organizations.id', '=', options.onlyId);
  const rows = await query.orderBy('organizations.id').limit(options.limit).offset(options.offset).execute();
  let counted = db
    .selectFrom('organization_members')
    .where('user_id', '=', userId)
    .select((eb) => eb.fn.countAll<number>().as('count'));
  if (options.onlyId !== undefined) counted = counted.where('organization_id', '=', options.onlyId);
  const { count } = await counted.executeTakeFirstOrThrow();
  return { rows: rows.map((row) => ({ ...row, members_count: Number(row.members_count) })), total: Number(count) };
}

export type OrganizationChanges = Partial<Pick<OrganizationRow, 'name' | 'brand_name' | 'brand_color' | 'brand_logo_type' | 'brand_logo'>>;

export async function updateOrganization(db: DbExecutor, id: number, changes: OrganizationChanges, now: string): Promise<void> {
  await db.updateTable('organizations').set({ ...changes, updated_at: now }).where('id', '=', id).execute();
}

/** Deletes the organisation; what it owns goes with it (foreign keys cascade), its bound keys too. */
export async function deleteOrganization(db: DbExecutor, id: number): Promise<void> {
  await db.deleteFrom('organizations').where('id', '=', id).execute();
}

/** An organisation's white-label columns, for its pages and its public logo and stylesheet. */
export async function findOrganizationBrand(
  db: DbExecutor,
  id: number,
): Promise<Pick<OrganizationRow, 'brand_name' | 'brand_color' | 'brand_logo_type' | 'brand_logo' | 'updated_at'> | undefined> {
  return db
    .selectFrom('organizations')
    .select(['brand_name', 'brand_color', 'brand_logo_type', 'brand_logo', 'updated_at'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** A member as listed: the account's e-mail with the role. */
export interface MemberRow {
  user_id: number;
  email: string;
  role: Role;
  added_at: string;
}

function members(db: DbExecutor, organizationId: number) {
  return db
    .selectFrom('organization_members')
    .innerJoin('users', 'users.id', 'organization_members.user_id')
    .select(['organization_members.user_id', 'users.email', 'organization_members.role', 'organization_members.added_at'])
    .where('organization_members.organization_id', '=', organizationId);
}

/** A page of the organisation's members in the order they were added, and how many there are. */
export async function listMembers(db: DbExecutor, organizationId: number, page: { limit: number; offset: number }): Promise<{ rows: MemberRow[]; total: number }> {
  const rows = await members(db, organizationId).orderBy('organization_members.id').limit(page.limit).offset(page.offset).execute();
  const { count } = await db
    .selectFrom('organization_members')
    .where('organization_id', '=', organizationId)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return { rows, total: Number(count) };
}

export async function findMember(db: DbExecutor, organizationId: number, userId: number): Promise<MemberRow | undefined> {
  return members(db, organizationId).where('organization_members.user_id', '=', userId).executeTakeFirst();
}

export async function updateMemberRole(db: DbExecutor, organizationId: number, userId: number, role: Role): Promise<void> {
  await db.updateTable('organization_members').set({ role }).where('organization_id', '=', organizationId).where('user_id', '=', userId).execute();
}

/**
 * Removes the member, revokes the API keys it had bound to the organisation and takes the
 * organisation off its dashboard sessions: the next request of that account there is a 404.
 */
export async function deleteMember(db: DbExecutor, organizationId: number, userId: number, now: string): Promise<void> {
  await db.deleteFrom('organization_members').where('organization_id', '=', organizationId).where('user_id', '=', userId).execute();
  await db
    .updateTable('api_keys')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('organization_id', '=', organizationId)
    .where('revoked_at', 'is', null)
    .execute();
  await db.updateTable('web_sessions').set({ organization_id: null }).where('user_id', '=', userId).where('organization_id', '=', organizationId).execute();
}

export async function countOwners(db: DbExecutor, organizationId: number): Promise<number> {
  const { count } = await db
    .selectFrom('organization_members')
    .where('organization_id', '=', organizationId)
    .where('role', '=', 'owner')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(count);
}
