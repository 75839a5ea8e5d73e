// Members of an organisation and their roles (docs/organisations.md, "Members"). Each change is judged
// against the caller's role first; an organisation always keeps an owner.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import { ROLES, type Role } from '../db/tables/organization.table.ts';
import * as organizationRepository from '../repositories/organization.repository.ts';
import type { MemberRow } from '../repositories/organization.repository.ts';
import * as userRepository from '../repositories/user.repository.ts';
import { inOneTransaction, type DbExecutor } from '../repositories/executor.ts';
import { checkEmail } from './account.service.ts';
import { NotFoundError, ValidationError } from './errors.ts';
import { requireRole } from './roles.ts';
import type { Caller, OrganizationService } from './organization.service.ts';
import type { Account, Page } from './types.ts';

export type Member = MemberRow;

/** What making an account needs from the account service. */
interface AccountMaker {
  createUser(email: string, isAdmin: boolean, executor: DbExecutor): Promise<{ account: Account; apiKey: string }>;
}

const LAST_OWNER = 'An organisation keeps at least one owner: make another member an owner first.';
const PERSONAL = 'A personal organisation has only its owner; create an organisation to work with others.';

function checkRole(role: unknown, allowed: readonly Role[]): Role {
  if (typeof role !== 'string' || !(allowed as readonly string[]).includes(role)) {
    throw new ValidationError('role', `The role must be one of ${allowed.join(', ')}.`);
  }
  return role as Role;
}

export function createMemberService(db: Kysely<Database>, organizations: OrganizationService, accounts: AccountMaker) {
  /** The caller's membership of the organisation (404 otherwise) and, unless it may, the 403. */
  async function judged(caller: Caller, organizationId: number, action: 'list members' | 'manage members') {
    const organization = await organizations.show(caller, organizationId);
    requireRole(organization.role, action);
    return organization;
  }

  async function memberOf(organizationId: number, userId: number, executor: DbExecutor = db): Promise<Member> {
    const found = await organizationRepository.findMember(executor, organizationId, userId);
    if (!found) throw new NotFoundError();
    return found;
  }

  return {
    async list(caller: Caller, organizationId: number, page: { page: number; perPage: number }): Promise<Page<Member>> {
      await judged(caller, organizationId, 'list members');
      const { rows, total } = await organizationRepository.listMembers(db, organizationId, {
        limit: page.perPage,
        offset: (page.page - 1) * page.perPage,
      });
      return { items: rows, total, page: page.page, perPage: page.perPage };
    },

    /** Adds the account with this e-mail, making it (and its first key, returned once) when there is none. */
    async add(caller: Caller, organizationId: number, input: { email?: unknown; role?: unknown }): Promise<{ member: Member; apiKey: string | null }> {
      const organization = await judged(caller, organizationId, 'manage members');
      const role = checkRole(input.role, ['owner', 'admin', 'editor', 'viewer']);
      if (role === 'owner') requireRole(organization.role, 'make owners');
      const email = checkEmail(typeof input.email === 'string' ? input.email : '');
      if (organization.personal) throw new ValidationError('email', PERSONAL);
      return inOneTransaction(db, async (trx) => {
        const existing = await userRepository.findUserByEmail(trx, email);
        let apiKey: string | null = null;
        let userId: number;
        if (existing) {
          if (await organizationRepository.findMember(trx, organizationId, existing.id)) {
            throw new ValidationError('email', `${email} is already a member of this organisation.`);
          }
          userId = existing.id;
        } else {
          const made = await accounts.createUser(email, false, trx);
          userId = made.account.id;
          apiKey = made.apiKey;
        }
        await organizationRepository.insertMember(trx, organizationId, userId, role, new Date().toISOString());
        return { member: await memberOf(organizationId, userId, trx), apiKey };
      });
    },

    async update(caller: Caller, organizationId: number, userId: number, input: { role?: unknown }): Promise<Member> {
      const organization = await judged(caller, organizationId, 'manage members');
      const role = checkRole(input.role, ROLES);
      return inOneTransaction(db, async (trx) => {
        const member = await memberOf(organizationId, userId, trx);
        if (member.role === 'owner') requireRole(organization.role, 'change owners');
        if (role === 'owner') requireRole(organization.role, 'make owners');
        if (member.role === 'owner' && role !== 'owner' && (await organizationRepository.countOwners(trx, organizationId)) <= 1) {
          throw new ValidationError('role', LAST_OWNER);
        }
        await organizationRepository.updateMemberRole(trx, organizationId, userId, role);
        return memberOf(organizationId, userId, trx);
      });
    },

    /** Removes a member; any member may remove themselves (leave). */
    async remove(caller: Caller, organizationId: number, userId: number): Promise<void> {
      const organization = await organizations.show(caller, organizationId);
      const leaving = userId === caller.account.id;
      if (!leaving) requireRole(organization.role, 'manage members');
      await inOneTransaction(db, async (trx) => {
        const member = await memberOf(organizationId, userId, trx);
        if (member.role === 'owner') {
          if (!leaving) requireRole(organization.role, 'change owners');
          if ((await organizationRepository.countOwners(trx, organizationId)) <= 1) throw new ValidationError('user_id', LAST_OWNER);
        }
        await organizationRepository.deleteMember(trx, organizationId, userId, new Date().toISOString());
      });
    },
  };
}

