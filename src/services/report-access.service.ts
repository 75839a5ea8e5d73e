// Who may see report N on its web page: every signed-in member of its organisation, whatever the
// privacy; anyone when it is public; with a password, a browser that unlocked it. Everyone else is told
// it does not exist, exactly as for a missing id, and in the same time: that is decided from the
// owner, privacy and membership columns alone, and the results
// (megabytes, for a big page) are read only for a viewer who may see them.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import { findReportGate, type ReportGateRow } from '../repositories/report-access.repository.ts';
import { findReportById } from '../repositories/report.repository.ts';
import { verifyPassword } from '../security/hashing.ts';
import { toReport } from './report-view.ts';
import type { Report } from './types.ts';
import type { Role } from '../db/tables/organization.table.ts';
import { roleAllows } from './roles.ts';

export interface Viewer {
  /** The signed-in account, if any. */
  accountId: number | null;
  /** The unlock token this browser holds for the report, if any. */
  unlockToken: string | undefined;
}

export type ReportAccess =
  /**
   * ownerId is the account the report belongs to: the viewer may see the report's runs, so an adapter
   * reads them through the owner-scoped run service and list (the decision is made here, once).
   */
  | { kind: 'visible'; report: Report; asOwner: boolean; ownerId: number; role: Role | null }
  /** Password-protected and not unlocked: ask for the password. */
  | { kind: 'locked'; organizationId: number }
  /** Missing, private to someone else, or not viewable: the not-found answer. */
  | { kind: 'hidden' };

/** What stands between a visitor and a report's page. */
export type PasswordGate =
  | { kind: 'hidden' }
  /** Public: there is nothing to unlock. */
  | { kind: 'not_locked' }
  /** Resolves to the browser's unlock token for the right password, null for a wrong one (slow: scrypt). */
  | { kind: 'locked'; organizationId: number; check(password: string): Promise<string | null> };

const PUBLIC = 0;
const PASSWORD = 2;

/**
 * The unlock token is an HMAC keyed with the report's current password hash: nobody can make one
 * without the database, it names one report, and changing the password invalidates it (relocks).
 */
function unlockToken(reportId: number, passwordHash: string): string {
  return createHmac('sha256', passwordHash).update(`pagegrade report unlock ${reportId}`).digest('base64url');
}

function tokenMatches(presented: string, expected: string): boolean {
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

type Decision = { kind: 'visible'; asOwner: boolean } | { kind: 'locked'; organizationId: number } | { kind: 'hidden' };

/**
 * `role`: the viewer's in the report's organisation: every member sees it. Its dashboard controls go
 * to an editor and up, for now only in the viewer's personal organisation, the one the dashboard acts
 * in (docs/organisations.md, "Not yet").
 */
function decide(gate: Omit<ReportGateRow, 'viewer_role' | 'personal_user_id'>, role: Role | null, viewer: Viewer, personalUserId: number | null): Decision {
  if (role !== null) return { kind: 'visible', asOwner: roleAllows(role, 'change reports') && personalUserId === viewer.accountId };
  if (gate.privacy === PUBLIC) return { kind: 'visible', asOwner: false };
  if (gate.privacy !== PASSWORD || gate.password_hash === null) return { kind: 'hidden' };
  const presented = viewer.unlockToken;
  if (presented !== undefined && tokenMatches(presented, unlockToken(gate.id, gate.password_hash))) {
    return { kind: 'visible', asOwner: false };
  }
  return { kind: 'locked', organizationId: gate.organization_id };
}

export function createReportAccessService(db: Kysely<Database>) {
  return {
    async view(id: number, viewer: Viewer): Promise<ReportAccess> {
      const gate = await findReportGate(db, id, viewer.accountId);
      if (!gate) return { kind: 'hidden' };
      const first = decide(gate, gate.viewer_role, viewer, gate.personal_user_id);
      if (first.kind !== 'visible') return first;
      const row = await findReportById(db, id);
      if (!row) return { kind: 'hidden' };
      // Decided again on the row read: its privacy or password may have changed in between.
      const decision = decide(row, gate.viewer_role, viewer, gate.personal_user_id);
      return decision.kind === 'visible'
        ? { kind: 'visible', report: toReport(row), asOwner: decision.asOwner, ownerId: row.organization_id, role: gate.viewer_role }
        : decision;
    },

    async passwordGate(id: number): Promise<PasswordGate> {
      const gate = await findReportGate(db, id, null);
      if (!gate) return { kind: 'hidden' };
      if (gate.privacy === PUBLIC) return { kind: 'not_locked' };
      const passwordHash = gate.password_hash;
      if (gate.privacy !== PASSWORD || passwordHash === null) return { kind: 'hidden' };
      return {
        kind: 'locked',
        organizationId: gate.organization_id,
        check: async (password) => ((await verifyPassword(password, passwordHash)) ? unlockToken(gate.id, passwordHash) : null),
      };
    },
  };
}

export type ReportAccessService = ReturnType<typeof createReportAccessService>;
