import type { Generated, Selectable } from 'kysely';

export const ROLES = ['owner', 'admin', 'editor', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/** Owns reports (with their runs), projects, crawls, webhooks and share links (docs/organisations.md). */
export interface OrganizationsTable {
  id: Generated<number>;
  name: string;
  /** the account whose personal organisation this is (its owner and only member); null for a shared one */
  personal_user_id: number | null;
  brand_name: string | null;
  /** #rrggbb */
  brand_color: string | null;
  /** the logo's media type (image/png, ...); null without a logo */
  brand_logo_type: string | null;
  /** base64 of the logo's bytes */
  brand_logo: string | null;
  created_at: string;
  updated_at: string;
}

/** An account's membership of an organisation, with its one role. */
export interface OrganizationMembersTable {
  /** the order members were added */
  id: Generated<number>;
  organization_id: number;
  user_id: number;
  role: Role;
  added_at: string;
}

export type OrganizationRow = Selectable<OrganizationsTable>;
