// Accounts and API keys: keys are random secrets stored only as SHA-256 hashes, shown once.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import { hashApiKey } from '../security/hashing.ts';
import * as userRepository from '../repositories/user.repository.ts';
import * as apiKeyRepository from '../repositories/api-key.repository.ts';
import { inOneTransaction, type DbExecutor } from '../repositories/executor.ts';
import { ValidationError } from './errors.ts';
import { insertKey, KEY_PREFIX_LENGTH } from './key.service.ts';
import type { Account } from './types.ts';
import type { CallerKey } from './organization.service.ts';

/** Last-used times are written at most this often per key, so reads stay reads. */
const TOUCH_INTERVAL_MS = 60_000;
const EMAIL = /^[^\s@]+@[^\s@]+$/;
const BOOTSTRAP_ADMIN_EMAIL = 'admin@localhost';

export interface Authenticated {
  account: Account;
  keyId: number;
  keyHash: string;
  key: CallerKey;
}

export interface KeyListing {
  id: number;
  email: string;
  prefix: string;
  label: string | null;
  scope: 'read' | 'write';
  /** the organisation the key is bound to; null: not bound */
  organization: number | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

interface UserRowView {
  id: number;
  email: string;
  is_admin: number;
  created_at: string;
  organization_id: number;
}

function toAccount(row: UserRowView): Account {
  return { id: row.id, email: row.email, is_admin: row.is_admin === 1, created_at: row.created_at, organization_id: row.organization_id };
}

/** The e-mail trimmed and lower-cased, or a ValidationError on `email` when it is not an address (the CLI checks options with it too). */
export function checkEmail(email: string): string {
  const trimmed = email.trim().toLowerCase();
  if (!EMAIL.test(trimmed) || trimmed.length > 254) {
    throw new ValidationError('email', `"${email}" is not an e-mail address.`);
  }
  return trimmed;
}

export function createAccountService(db: Kysely<Database>) {
  const lastTouched = new Map<number, number>();

  async function addKey(userId: number, label: string | null, secret?: string, executor: DbExecutor = db) {
    return (await insertKey(executor, userId, { name: label }, secret)).secret;
  }

  /** A new account, its personal organisation and its first key; `executor`: a transaction to make them in. */
  async function createUser(email: string, isAdmin: boolean, executor: DbExecutor = db): Promise<{ account: Account; apiKey: string }> {
    const normalised = checkEmail(email);
    if (await userRepository.findUserByEmail(executor, normalised)) {
      throw new ValidationError('email', `An account with the e-mail ${normalised} already exists.`);
    }
    return inOneTransaction(executor, async (trx) => {
      const user = await userRepository.insertUser(trx, {
        email: normalised,
        is_admin: isAdmin ? 1 : 0,
        created_at: new Date().toISOString(),
      });
      return { account: toAccount(user), apiKey: await addKey(user.id, 'first key', undefined, trx) };
    });
  }

  async function userByEmail(email: string) {
    const user = await userRepository.findUserByEmail(db, checkEmail(email));
    if (!user) throw new ValidationError('email', `No account has the e-mail ${email}.`);
    return user;
  }

  return {
    createUser,

    async authenticate(secret: string): Promise<Authenticated | null> {
      const keyHash = hashApiKey(secret);
      const found = await apiKeyRepository.findActiveKeyWithUserByHash(db, keyHash);
      if (!found) return null;
      const now = Date.now();
      if ((lastTouched.get(found.key_id) ?? 0) + TOUCH_INTERVAL_MS < now) {
        lastTouched.set(found.key_id, now);
        await apiKeyRepository.touchApiKeyLastUsed(db, found.key_id, new Date(now).toISOString());
      }
      return {
        account: toAccount({ id: found.user_id, email: found.email, is_admin: found.is_admin, created_at: found.user_created_at, organization_id: found.personal_organization_id }),
        keyId: found.key_id,
        keyHash,
        key: { id: found.key_id, prefix: found.key_prefix, name: found.label, scope: found.scope, organization: found.bound_organization_id },
      };
    },

    /** The account with this e-mail; a ValidationError on `email` when there is none (admin tools). */
    async accountByEmail(email: string): Promise<Account> {
      return toAccount(await userByEmail(email));
    },

    async listUsers(): Promise<Account[]> {
      return (await userRepository.listUsers(db)).map(toAccount);
    },

    /** Revokes by prefix (as listed) or by the whole secret. True when a key was revoked. */
    async revokeKey(prefixOrSecret: string): Promise<boolean> {
      const prefix = prefixOrSecret.slice(0, KEY_PREFIX_LENGTH);
      if (prefixOrSecret.length > KEY_PREFIX_LENGTH) {
        const found = await apiKeyRepository.findActiveKeyWithUserByHash(db, hashApiKey(prefixOrSecret));
        if (!found) return false;
        return (await apiKeyRepository.revokeApiKeyById(db, found.key_id, new Date().toISOString())) > 0;
      }
      if (prefix.length < KEY_PREFIX_LENGTH) {
        throw new ValidationError('key', `Name a key by its ${KEY_PREFIX_LENGTH}-character prefix or the whole key.`);
      }
      return (await apiKeyRepository.revokeApiKeyByPrefix(db, prefix, new Date().toISOString())) > 0;
    },

    async listKeys(email?: string): Promise<KeyListing[]> {
      const userId = email === undefined ? undefined : (await userByEmail(email)).id;
      const rows = await apiKeyRepository.listApiKeys(db, userId);
      return rows.map((row) => ({
        id: row.id,
        email: row.email,
        prefix: row.key_prefix,
        label: row.label,
        scope: row.scope,
        organization: row.organization_id,
        created_at: row.created_at,
        last_used_at: row.last_used_at,
        revoked_at: row.revoked_at,
      }));
    },

    /**
     * PAGEGRADE_ADMIN_KEY set: make sure an admin account holds exactly that key. Unset: on the
     * first start with no account, create an admin and return its key to be shown once.
     */
    async bootstrapAdmin(adminKey: string | undefined): Promise<{ created: { email: string; apiKey: string } | null }> {
      if (adminKey !== undefined) {
        const found = await apiKeyRepository.findActiveKeyWithUserByHash(db, hashApiKey(adminKey));
        if (found?.is_admin === 1) return { created: null };
        if (found) throw new Error('PAGEGRADE_ADMIN_KEY belongs to an account that is not an admin.');
        const admin =
          (await userRepository.findUserByEmail(db, BOOTSTRAP_ADMIN_EMAIL)) ??
          (await userRepository.insertUser(db, { email: BOOTSTRAP_ADMIN_EMAIL, is_admin: 1, created_at: new Date().toISOString() }));
        if (admin.is_admin !== 1) throw new Error(`${BOOTSTRAP_ADMIN_EMAIL} exists and is not an admin.`);
        await addKey(admin.id, 'PAGEGRADE_ADMIN_KEY', adminKey);
        return { created: null };
      }
      if ((await userRepository.countUsers(db)) > 0) return { created: null };
      const { account, apiKey } = await createUser(BOOTSTRAP_ADMIN_EMAIL, true);
      return { created: { email: account.email, apiKey } };
    },
  };
}
