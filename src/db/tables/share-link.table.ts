import type { Generated, Insertable, Selectable } from 'kysely';

/**
 * A link that opens one report or one crawl without sign-in until it expires or is revoked
 * (docs/organisations.md, "Share links"). Exactly one of report_id and crawl_id is set.
 */
export interface ShareLinksTable {
  id: Generated<number>;
  organization_id: number;
  report_id: number | null;
  crawl_id: number | null;
  /** SHA-256 hex of the token; the token itself is never stored */
  token_hash: string;
  /** the token's first 8 characters, to recognise a link when listing or revoking it */
  prefix: string;
  /** the account that made it; null once that account is deleted */
  created_by: number | null;
  /** that account's e-mail when it made the link, kept when the account goes */
  created_by_email: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}

export type ShareLinkRow = Selectable<ShareLinksTable>;
export type NewShareLink = Insertable<ShareLinksTable>;
