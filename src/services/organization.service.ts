// Organisations: which one a request acts in, and creating, reading, changing and deleting them
// (docs/organisations.md). An organisation the caller is not a member of is a NotFoundError
// everywhere, so its existence never leaks.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { Role } from '../db/tables/organization.table.ts';
import * as organizationRepository from '../repositories/organization.repository.ts';
import type { Membership } from '../repositories/organization.repository.ts';
import { inOneTransaction } from '../repositories/executor.ts';
import { boundedText, NotFoundError, ValidationError } from './errors.ts';
import { ForbiddenError, requireRole } from './roles.ts';
import { brandChanges } from './organization-brand.ts';
import { positiveId } from '../schemas/parse-id.ts';
import type { Account, Page } from './types.ts';

/** The API key a request came with: what it may do and where. */
export interface CallerKey {
  id: number;
  prefix: string;
  name: string | null;
  scope: 'read' | 'write';
  /** bound to this organisation; null: acts where the request says */
  organization: number | null;
}

/** Who acts: the account, and the key it used (null for the CLI and other in-process callers). */
export interface Caller {
  account: Account;
  key: CallerKey | null;
}

/** The organisation a request acts in, with the caller's role there. */
export interface ActingOrganization {
  id: number;
  role: Role;
  personal: boolean;
}

/** An organisation as the API shows it to one member; brand_logo is the logo's path on this server. */
export interface OrganizationView {
  id: number;
  name: string;
  personal: boolean;
  role: Role;
  brand_name: string | null;
  brand_color: string | null;
  brand_logo: string | null;
  members_count: number;
  created_at: string;
  updated_at: string;
}

/** What an organisation's pages wear: null fields fall back to the server's brand. */
export interface OrganizationBrand {
  name: string | null;
  color: string | null;
  logo: { type: string; bytes: Buffer } | null;
  /** where the logo and the colour's stylesheet are served */
  paths: { logo: string; theme: string };
}

const NAME_MAX = 100;

/**
 * Where an organisation's logo and colour are served (web/routes/brand.ts). Their version is the
 * organisation's last change, so they may be cached for a year and never show a stale brand.
 */
function organizationBrandPaths(id: number, updatedAt: string): { logo: string; theme: string } {
  const version = Date.parse(updatedAt).toString(36);
  return { logo: `/brand/organizations/${id}/logo?v=${version}`, theme: `/brand/organizations/${id}/theme.css?v=${version}` };
}

function toView(row: Membership): OrganizationView {
  return {
    id: row.id,
    name: row.name,
    personal: row.personal_user_id !== null,
    role: row.role,
    brand_name: row.brand_name,
    brand_color: row.brand_color,
    brand_logo: row.brand_logo ? organizationBrandPaths(row.id, row.updated_at).logo : null,
    members_count: row.members_count,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The organisation's name trimmed, or a ValidationError on `name`. */
function checkOrganizationName(name: unknown): string {
  return boundedText('name', 'name', name, NAME_MAX);
}

/** A bound key refused something outside its organisation. */
function boundKeyRefusal(organization: number): ForbiddenError {
  return new ForbiddenError(`This API key works only in organisation ${organization}.`);
}

export function createOrganizationService(db: Kysely<Database>) {
  /** The membership, or NotFoundError (unknown, not a member, or outside the key's organisation). */
  async function membership(caller: Caller, id: number): Promise<Membership> {
    const bound = caller.key?.organization ?? null;
    if (bound !== null && bound !== id) throw new NotFoundError();
    const found = await organizationRepository.findMembership(db, caller.account.id, id);
    if (!found) throw new NotFoundError();
    return found;
  }

  return {
    /**
     * Which organisation a request acts in: a bound key's own; else the one named (header or query,
     * as text), of which the caller must be a member; else the personal one.
     */
    async acting(caller: Caller, named: string | undefined): Promise<ActingOrganization> {
      const namedId = named === undefined ? undefined : positiveId(named);
      if (namedId === null) throw new NotFoundError();
      const bound = caller.key?.organization ?? null;
      const id = bound ?? namedId ?? caller.account.organization_id;
      if (namedId !== undefined && namedId !== id) throw new NotFoundError();
      if (id === caller.account.organization_id) return { id, role: 'owner', personal: true };
      const found = await organizationRepository.findMembership(db, caller.account.id, id);
      if (!found) throw new NotFoundError();
      return { id, role: found.role, personal: found.personal_user_id !== null };
    },

    async create(caller: Caller, name: unknown): Promise<OrganizationView> {
      if (caller.key?.organization != null) throw boundKeyRefusal(caller.key.organization);
      const checked = checkOrganizationName(name);
      const now = new Date().toISOString();
      const id = await inOneTransaction(db, (trx) => organizationRepository.insertOrganization(trx, checked, caller.account.id, now));
      return toView(await membership(caller, id));
    },

    async list(caller: Caller, page: { page: number; perPage: number }): Promise<Page<OrganizationView>> {
      const { rows, total } = await organizationRepository.listMemberships(db, caller.account.id, {
        onlyId: caller.key?.organization ?? undefined,
        limit: page.perPage,
        offset: (page.page - 1) * page.perPage,
      });
      return { items: rows.map(toView), total, page: page.page, perPage: page.perPage };
    },

    async show(caller: Caller, id: number): Promise<OrganizationView> {
      return toView(await membership(caller, id));
    },

    /** Name and white-label (organization-brand.ts); only the fields given change, null or '' clears one. */
    async update(
      caller: Caller,
      id: number,
      changes: { name?: unknown; brand_name?: unknown; brand_color?: unknown; brand_logo?: unknown },
    ): Promise<OrganizationView> {
      const found = await membership(caller, id);
      requireRole(found.role, 'change the organisation');
      const set: organizationRepository.OrganizationChanges = brandChanges(changes);
      if (changes.name !== undefined) set.name = checkOrganizationName(changes.name);
      await organizationRepository.updateOrganization(db, id, set, new Date().toISOString());
      return toView(await membership(caller, id));
    },

    /**
     * An organisation's white-label as its pages and share links wear it, to anyone (the logo and
     * colour are served without auth); null for no such organisation.
     */
    async brand(id: number): Promise<OrganizationBrand | null> {
      const row = await organizationRepository.findOrganizationBrand(db, id);
      if (!row) return null;
      return {
        name: row.brand_name,
        color: row.brand_color,
        logo: row.brand_logo_type && row.brand_logo ? { type: row.brand_logo_type, bytes: Buffer.from(row.brand_logo, 'base64') } : null,
        paths: organizationBrandPaths(id, row.updated_at),
      };
    },

    /** Deletes the organisation and all it owns in one transaction; a personal one only goes with its account. */
    async remove(caller: Caller, id: number): Promise<void> {
      const found = await membership(caller, id);
      requireRole(found.role, 'delete the organisation');
      if (found.personal_user_id !== null) {
        throw new ValidationError('organization', 'A personal organisation is deleted only with its account.');
      }
      await inOneTransaction(db, (trx) => organizationRepository.deleteOrganization(trx, id));
    },
  };
}

export type OrganizationService = ReturnType<typeof createOrganizationService>;
