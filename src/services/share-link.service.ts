// Share links (docs/organisations.md, "Share links"): a random token that opens one report or one
// crawl of an organisation to anyone who has it, without sign-in, until it expires or is revoked. The
// token is shown once, when it is made; only its SHA-256 and its first 8 characters are stored. The
// clock is injectable so expiry can be tested without waiting.
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { ShareLinkRow } from '../db/tables/share-link.table.ts';
import { readPage } from '../lists/page.ts';
import * as shareLinkRepository from '../repositories/share-link.repository.ts';
import type { ShareTarget } from '../repositories/share-link.repository.ts';
import { findReportById } from '../repositories/report.repository.ts';
import { findCrawl } from '../repositories/crawl.repository.ts';
import { NotFoundError, ValidationError } from './errors.ts';
import { toReport } from './report-view.ts';
import { toCrawl, type Crawl } from './crawl-view.ts';
import type { Page, Report } from './types.ts';

export type { ShareTarget } from '../repositories/share-link.repository.ts';

/** 32 random bytes: 256 bits, 43 characters of base64url (the contract asks for at least 128 bits). */
const TOKEN_BYTES = 32;
const PREFIX_LENGTH = 8;
/** A token as this service writes them; anything else presented as one is unknown without a look-up. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{22,100}$/;
const DAY_MS = 24 * 60 * 60 * 1000;
const SHARE_EXPIRY_DAYS = { min: 1, max: 365, default: 30 } as const;

/** A link as its list shows it: never the token. */
export interface ShareLinkView {
  prefix: string;
  expires_at: string;
  created_at: string;
  created_by: { email: string };
}

/** What creating answers, once: the only time the token is known. */
export interface CreatedShareLink extends ShareLinkView {
  token: string;
}

/** Who makes a link: the account acting (its e-mail is kept with the link). */
export interface ShareCreator {
  userId: number;
  email: string;
}

/** What a valid token opens, with the organisation that owns it. */
export type ResolvedShare =
  | { kind: 'report'; organizationId: number; report: Report }
  | { kind: 'crawl'; organizationId: number; crawl: Crawl };

export interface ShareLinkServiceOptions {
  /** The clock links are made, listed and resolved by (tests move it past an expiry). */
  now?: () => Date;
}

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function toView(row: ShareLinkRow): ShareLinkView {
  return { prefix: row.prefix, expires_at: row.expires_at, created_at: row.created_at, created_by: { email: row.created_by_email } };
}

/** expires_in_days from a form (a string) or JSON (a number); absent or empty: the default. */
function expiryDays(value: unknown): number {
  if (value === undefined || value === null || value === '') return SHARE_EXPIRY_DAYS.default;
  const days = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d{1,4}\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(days) || days < SHARE_EXPIRY_DAYS.min || days > SHARE_EXPIRY_DAYS.max) {
    throw new ValidationError('expires_in_days', `The expires_in_days must be an integer from ${SHARE_EXPIRY_DAYS.min} to ${SHARE_EXPIRY_DAYS.max}.`);
  }
  return days;
}

export function createShareLinkService(db: Kysely<Database>, options: ShareLinkServiceOptions = {}) {
  const now = options.now ?? (() => new Date());

  /** The report or crawl must be the organisation's: a 404 otherwise, as for any of its requests. */
  async function owned(organizationId: number, target: ShareTarget): Promise<void> {
    if (!(await shareLinkRepository.targetOwned(db, organizationId, target))) throw new NotFoundError();
  }

  return {
    async create(organizationId: number, target: ShareTarget, creator: ShareCreator, input: { expires_in_days?: unknown }): Promise<CreatedShareLink> {
      const days = expiryDays(input.expires_in_days);
      await owned(organizationId, target);
      const token = randomBytes(TOKEN_BYTES).toString('base64url');
      const created = now();
      const row = await shareLinkRepository.insertShareLink(db, {
        organization_id: organizationId,
        report_id: target.kind === 'report' ? target.id : null,
        crawl_id: target.kind === 'crawl' ? target.id : null,
        token_hash: hashToken(token),
        prefix: token.slice(0, PREFIX_LENGTH),
        created_by: creator.userId,
        created_by_email: creator.email,
        created_at: created.toISOString(),
        expires_at: new Date(created.getTime() + days * DAY_MS).toISOString(),
        revoked_at: null,
      });
      return { token, ...toView(row) };
    },

    /** The target's links that are neither expired nor revoked, newest first. */
    async list(organizationId: number, target: ShareTarget, page: { page: number; perPage: number }): Promise<Page<ShareLinkView>> {
      await owned(organizationId, target);
      const at = now().toISOString();
      return readPage(
        page.page,
        page.perPage,
        async (window) => (await shareLinkRepository.listActiveShareLinks(db, target, at, window)).map(toView),
        () => shareLinkRepository.countActiveShareLinks(db, target, at),
      );
    },

    /** Revokes one of the target's active links by its whole token or its 8-character prefix; NotFoundError when none matches. */
    async revoke(organizationId: number, target: ShareTarget, tokenOrPrefix: string): Promise<{ prefix: string }> {
      await owned(organizationId, target);
      const match = tokenOrPrefix.length === PREFIX_LENGTH
        ? { prefix: tokenOrPrefix }
        : TOKEN_SHAPE.test(tokenOrPrefix) ? { tokenHash: hashToken(tokenOrPrefix) } : null;
      if (match === null) throw new NotFoundError();
      const [prefix] = await shareLinkRepository.revokeShareLinks(db, target, match, now().toISOString());
      if (prefix === undefined) throw new NotFoundError();
      return { prefix };
    },

    /**
     * What an active token opens, read as its organisation's (the visitor is trusted by the token
     * alone); null for an unknown, expired or revoked token, or one whose report or crawl is gone.
     */
    async resolve(token: string): Promise<ResolvedShare | null> {
      if (!TOKEN_SHAPE.test(token)) return null;
      const link = await shareLinkRepository.findActiveShareLink(db, hashToken(token), now().toISOString());
      if (!link) return null;
      if (link.report_id !== null) {
        const row = await findReportById(db, link.report_id);
        return row && row.organization_id === link.organization_id ? { kind: 'report', organizationId: link.organization_id, report: toReport(row) } : null;
      }
      if (link.crawl_id !== null) {
        const row = await findCrawl(db, link.organization_id, link.crawl_id);
        return row ? { kind: 'crawl', organizationId: link.organization_id, crawl: toCrawl(row) } : null;
      }
      return null;
    },
  };
}
