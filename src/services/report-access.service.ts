// Who may see report N on its web page: its owner always; anyone when it is public; with a password,
// a browser that unlocked it. Everyone else is told it does not exist, exactly as for a missing id.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
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
  | { kind: 'visible'; report: Report; asOwner: boolean }
  /** Password-protected and not unlocked: ask for the password. */
  | { kind: 'locked' }
  /** Missing, private to someone else, or not viewable: the not-found answer. */
  | { kind: 'hidden' };

export type UnlockResult =
  | { kind: 'unlocked'; token: string }
  | { kind: 'wrong_password' }
  /** Public: there is nothing to unlock. */
  | { kind: 'not_locked' }
  | { kind: 'hidden' };

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

export function createReportAccessService(db: Kysely<Database>) {
  return {
    async view(id: number, viewer: Viewer): Promise<ReportAccess> {
      const row = await findReportById(db, id);
      if (!row) return { kind: 'hidden' };
      if (viewer.accountId === row.user_id) return { kind: 'visible', report: toReport(row), asOwner: true };
      if (row.privacy === PUBLIC) return { kind: 'visible', report: toReport(row), asOwner: false };
      if (row.privacy !== PASSWORD || row.password_hash === null) return { kind: 'hidden' };
      const presented = viewer.unlockToken;
      if (presented !== undefined && tokenMatches(presented, unlockToken(row.id, row.password_hash))) {
        return { kind: 'visible', report: toReport(row), asOwner: false };
      }
      return { kind: 'locked' };
    },

    async unlock(id: number, password: string): Promise<UnlockResult> {
      const row = await findReportById(db, id);
      if (!row) return { kind: 'hidden' };
      if (row.privacy === PUBLIC) return { kind: 'not_locked' };
      if (row.privacy !== PASSWORD || row.password_hash === null) return { kind: 'hidden' };
      if (!(await verifyPassword(password, row.password_hash))) return { kind: 'wrong_password' };
      return { kind: 'unlocked', token: unlockToken(row.id, row.password_hash) };
    },
  };
}

export type ReportAccessService = ReturnType<typeof createReportAccessService>;
