// API keys as the API and the CLI make them (docs/organisations.md, "API keys"): a scope, an optional
// organisation the key is bound to, a name; the secret shown once and stored only as a SHA-256 hash.
// A bound key manages only keys bound to its own organisation.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { DbExecutor } from '../repositories/executor.ts';
import type { ApiKeyRow } from '../db/tables/api-key.table.ts';
import * as apiKeyRepository from '../repositories/api-key.repository.ts';
import * as organizationRepository from '../repositories/organization.repository.ts';
import { generateApiKey, hashApiKey } from '../security/hashing.ts';
import { boundedText, NotFoundError, ValidationError } from './errors.ts';
import { positiveId } from '../schemas/parse-id.ts';
import type { Page } from './types.ts';

export const KEY_PREFIX_LENGTH = 12;
const NAME_MAX = 100;
const SCOPES = ['read', 'write'] as const;
export type KeyScope = (typeof SCOPES)[number];

export interface KeyView {
  prefix: string;
  name: string | null;
  scope: KeyScope;
  organization: number | null;
  created_at: string;
  last_used_at: string | null;
}

export interface CreatedKeyView extends KeyView {
  api_key: string;
}

/** Who asks: the account, and the organisation its key is bound to (null: not bound, or the CLI). */
export interface KeyOwner {
  userId: number;
  boundTo: number | null;
}

export interface KeyInput {
  name?: unknown;
  scope?: unknown;
  organization?: unknown;
}

function toView(row: ApiKeyRow): KeyView {
  return {
    prefix: row.key_prefix,
    name: row.label,
    scope: row.scope,
    organization: row.organization_id,
    created_at: row.created_at,
    last_used_at: row.last_used_at,
  };
}

function checkName(name: unknown): string | null {
  if (name === undefined || name === null || name === '') return null;
  return boundedText('name', 'name', name, NAME_MAX);
}

function checkScope(scope: unknown): KeyScope {
  if (scope === undefined || scope === '') return 'write';
  if (typeof scope !== 'string' || !(SCOPES as readonly string[]).includes(scope)) {
    throw new ValidationError('scope', `The scope must be one of ${SCOPES.join(', ')}.`);
  }
  return scope as KeyScope;
}

/**
 * Stores a key for the account: only the secret's SHA-256 and its first 12 characters. The one door
 * for keys, so every key (a first key, PAGEGRADE_ADMIN_KEY, one made through /keys) is made alike.
 */
export async function insertKey(
  executor: DbExecutor,
  userId: number,
  fields: { name: string | null; scope?: KeyScope; organization?: number | null },
  secret = generateApiKey(),
): Promise<{ row: ApiKeyRow; secret: string }> {
  const row = await apiKeyRepository.insertApiKey(executor, {
    user_id: userId,
    key_hash: hashApiKey(secret),
    key_prefix: secret.slice(0, KEY_PREFIX_LENGTH),
    label: fields.name,
    scope: fields.scope ?? 'write',
    organization_id: fields.organization ?? null,
    created_at: new Date().toISOString(),
    last_used_at: null,
    revoked_at: null,
  });
  return { row, secret };
}

export function createKeyService(db: Kysely<Database>) {
  /** The organisation to bind to: one the account is a member of, and a bound key's own. */
  async function checkOrganization(owner: KeyOwner, organization: unknown): Promise<number | null> {
    const refused = new ValidationError('organization', 'The organization must be the id of an organisation you are a member of.');
    if (organization === undefined || organization === null || organization === '') return owner.boundTo;
    const id = positiveId(String(organization));
    if (id === null) throw refused;
    if (owner.boundTo !== null && id !== owner.boundTo) throw refused;
    if (!(await organizationRepository.findMembership(db, owner.userId, id))) throw refused;
    return id;
  }

  return {
    async create(owner: KeyOwner, input: KeyInput): Promise<CreatedKeyView> {
      const name = checkName(input.name);
      const scope = checkScope(input.scope);
      const organization = await checkOrganization(owner, input.organization);
      const { row, secret } = await insertKey(db, owner.userId, { name, scope, organization });
      return { ...toView(row), api_key: secret };
    },

    async list(owner: KeyOwner, page: { page: number; perPage: number }): Promise<Page<KeyView>> {
      const { rows, total } = await apiKeyRepository.listActiveKeys(db, owner.userId, {
        boundTo: owner.boundTo,
        limit: page.perPage,
        offset: (page.page - 1) * page.perPage,
      });
      return { items: rows.map(toView), total, page: page.page, perPage: page.perPage };
    },

    /** Revokes one of the account's active keys by its prefix; NotFoundError when there is none. */
    async revoke(owner: KeyOwner, prefix: string): Promise<KeyView> {
      if (prefix.length < KEY_PREFIX_LENGTH) throw new NotFoundError();
      const row = await apiKeyRepository.revokeOwnKey(db, owner.userId, prefix.slice(0, KEY_PREFIX_LENGTH), owner.boundTo, new Date().toISOString());
      if (!row) throw new NotFoundError();
      return toView(row);
    },
  };
}

