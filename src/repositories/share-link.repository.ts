// Share links (docs/organisations.md, "Share links"), looked up by the SHA-256 of the token a visitor
// presents, or listed and revoked under their report or crawl. "Active": neither revoked nor expired at
// `now` (ISO-8601 UTC strings, which compare as the instants they name).
import type { DbExecutor } from './executor.ts';
import type { NewShareLink, ShareLinkRow } from '../db/tables/share-link.table.ts';

/** What a link opens: one report or one crawl. */
export type ShareTarget = { kind: 'report'; id: number } | { kind: 'crawl'; id: number };

function targetColumn(target: ShareTarget): 'report_id' | 'crawl_id' {
  return target.kind === 'report' ? 'report_id' : 'crawl_id';
}

export async function insertShareLink(db: DbExecutor, link: NewShareLink): Promise<ShareLinkRow> {
  return db.insertInto('share_links').values(link).returningAll().executeTakeFirstOrThrow();
}

/** Whether the organisation owns the report or crawl: the check every share request makes first. */
export async function targetOwned(db: DbExecutor, organizationId: number, target: ShareTarget): Promise<boolean> {
  const table = target.kind === 'report' ? 'reports' : 'crawls';
  const row = await db.selectFrom(table).select('id').where('organization_id', '=', organizationId).where('id', '=', target.id).executeTakeFirst();
  return row !== undefined;
}

function activeOf(db: DbExecutor, target: ShareTarget, now: string) {
  return db
    .selectFrom('share_links')
    .where(targetColumn(target), '=', target.id)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now);
}

/** One page of the target's active links, newest first (ids grow with time). */
export async function listActiveShareLinks(db: DbExecutor, target: ShareTarget, now: string, window: { limit: number; offset: number }): Promise<ShareLinkRow[]> {
  return activeOf(db, target, now).selectAll().orderBy('id', 'desc').limit(window.limit).offset(window.offset).execute();
}

export async function countActiveShareLinks(db: DbExecutor, target: ShareTarget, now: string): Promise<number> {
  const { count } = await activeOf(db, target, now).select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
  return Number(count);
}

/**
 * Revokes the target's active links that match: by the token's hash, or by its 8-character prefix.
 * Returns the prefixes revoked (empty: nothing matched).
 */
export async function revokeShareLinks(
  db: DbExecutor,
  target: ShareTarget,
  match: { tokenHash: string } | { prefix: string },
  now: string,
): Promise<string[]> {
  let query = db
    .updateTable('share_links')
    .set({ revoked_at: now })
    .where(targetColumn(target), '=', target.id)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now);
  query = 'tokenHash' in match ? query.where('token_hash', '=', match.tokenHash) : query.where('prefix', '=', match.prefix);
  const rows = await query.returning('prefix').execute();
  return rows.map((row) => row.prefix);
}

/** The active link of this token hash whose organisation still exists. */
export async function findActiveShareLink(db: DbExecutor, tokenHash: string, now: string): Promise<ShareLinkRow | undefined> {
  return db
    .selectFrom('share_links')
    .innerJoin('organizations', 'organizations.id', 'share_links.organization_id')
    .selectAll('share_links')
    .where('share_links.token_hash', '=', tokenHash)
    .where('share_links.revoked_at', 'is', null)
    .where('share_links.expires_at', '>', now)
    .executeTakeFirst();
}
