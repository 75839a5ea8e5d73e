// Who may see report N on its web page: its owner always; anyone when it is public; with a password,
// a browser that unlocked it. Everyone else is told it does not exist, exactly as for a missing id,
// and in the same time: that is decided from the owner and privacy columns alone, and the results
// (megabytes, for a big page) are read only for a viewer who may see them.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import { findReportGate, type ReportGateRow } from '../repositories/report-access.repository.ts';
import { findReportById } from '../repositories/report.repository.ts';
import { verifyPassword } from '../security/hashing.ts';
import { toReport } from './report-view.ts';
import type { Report } from './types.ts';

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
  | { kind: 'visible'; report: Report; asOwner: boolean; ownerId: number }
  /** Password-protected and not unlocked: ask for the password. */
  | { kind: 'locked' }
  /** Missing, private to someone else, or not viewable: the not-found answer. */
  | { kind: 'hidden' };

/** What stands between a visitor and a report's page. */
export type PasswordGate =
  | { kind: 'hidden' }
  /** Public: there is nothing to unlock. */
  | { kind: 'not_locked' }
  /** Resolves to the browser's unlock token for the right password, null for a wrong one (slow: scrypt). */
  | { kind: 'locked'; check(password: string): Promise<string | null> };

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

type Decision = { kind: 'visible'; asOwner: boolean } | { kind: 'locked' } | { kind: 'hidden' };

function decide(gate: ReportGateRow, viewer: Viewer): Decision {
  if (viewer.accountId === gate.user_id) return { kind: 'visible', asOwner: true };
  if (gate.privacy === PUBLIC) return { kind: 'visible', asOwner: false };
  if (gate.privacy !== PASSWORD || gate.password_hash === null) return { kind: 'hidden' };
  const presented = viewer.unlockToken;
  if (presented !== undefined && tokenMatches(presented, unlockToken(gate.id, gate.password_hash))) {
    return { kind: 'visible', asOwner: false };
  }
  return { kind: 'locked' };
}

export function createReportAccessService(db: Kysely<Database>) {
  return {
    async view(id: number, viewer: Viewer): Promise<ReportAccess> {
      const gate = await findReportGate(db, id);
      if (!gate) return { kind: 'hidden' };
      const first = decide(gate, viewer);
      if (first.kind !== 'visible') return first;
      const row = await findReportById(db, id);
      if (!row) return { kind: 'hidden' };
      // Decided again on the row read: its privacy or password may have changed in between.
      const decision = decide(row, viewer);
      return decision.kind === 'visible'
        ? { kind: 'visible', report: toReport(row), asOwner: decision.asOwner, ownerId: row.user_id }
        : decision;
    },

    async passwordGate(id: number): Promise<PasswordGate> {
      const gate = await findReportGate(db, id);
      if (!gate) return { kind: 'hidden' };
      if (gate.privacy === PUBLIC) return { kind: 'not_locked' };
      const passwordHash = gate.password_hash;
      if (gate.privacy !== PASSWORD || passwordHash === null) return { kind: 'hidden' };
      return {
        kind: 'locked',
        check: async (password) => ((await verifyPassword(password, passwordHash)) ? unlockToken(gate.id, passwordHash) : null),
      };
    },
  };
}

export type ReportAccessService = ReturnType<typeof createReportAccessService>;
