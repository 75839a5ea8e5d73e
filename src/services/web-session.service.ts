// Dashboard sign-in: an API key, checked once, opens a session whose random token lives in an HttpOnly
// cookie and whose SHA-256 lives in the database. Stored sessions (not signed cookies) because a
// sign-out or a revoked key must end a session at once, and no server secret has to be kept.
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import * as webSessionRepository from '../repositories/web-session.repository.ts';
import type { Account } from './types.ts';

/** Signed-in browsers are asked for their key again after a week. */
const SESSION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;
const TOKEN_BYTES = 32;
/** 32 bytes in base64url; anything else cannot be one of our tokens and costs no query. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export interface OpenedSession {
  account: Account;
  /** The cookie value: shown to the browser once, stored only as a hash. */
  token: string;
  expiresAt: Date;
}

/** What signing in needs from the account service. */
export interface KeyAuthenticator {
  authenticate(secret: string): Promise<{ account: Account; keyId: number } | null>;
}

/** Random tokens need no slow hash: SHA-256 makes a stolen table useless. */
function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function createWebSessionService(db: Kysely<Database>, accounts: KeyAuthenticator) {
  return {
    /** Null when the key is unknown or revoked. */
    async signIn(apiKey: string): Promise<OpenedSession | null> {
      const found = await accounts.authenticate(apiKey.trim());
      if (!found) return null;
      const now = new Date();
      const token = randomBytes(TOKEN_BYTES).toString('base64url');
      const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_MS);
      // Each sign-in sweeps the sessions that have run out, so the table holds live ones only.
      await webSessionRepository.deleteExpiredWebSessions(db, now.toISOString());
      await webSessionRepository.insertWebSession(db, {
        token_hash: hashToken(token),
        user_id: found.account.id,
        api_key_id: found.keyId,
        created_at: now.toISOString(),
        expires_at: expiresAt.toISOString(),
      });
      return { account: found.account, token, expiresAt };
    },

    /** The signed-in account, or null for an unknown, expired or revoked-key session. */
    async resolve(token: string): Promise<Account | null> {
      if (!TOKEN_SHAPE.test(token)) return null;
      const found = await webSessionRepository.findActiveWebSession(db, hashToken(token), new Date().toISOString());
      if (!found) return null;
      return { id: found.user_id, email: found.email, is_admin: found.is_admin === 1, created_at: found.user_created_at, organization_id: found.personal_organization_id };
    },

    async signOut(token: string): Promise<void> {
      if (TOKEN_SHAPE.test(token)) await webSessionRepository.deleteWebSession(db, hashToken(token));
    },
  };
}

export type WebSessionService = ReturnType<typeof createWebSessionService>;
