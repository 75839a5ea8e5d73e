// The migration that stores each report's list item fills it in for the reports already there, the
// same text the application writes for a new report, and its down removes the new columns again.
import { describe, expect, it } from 'vitest';
import * as createUsersAndApiKeys from '../../src/db/migrations/2026-11-21-0900-create-users-and-api-keys.ts';
import * as createReportsAndProjects from '../../src/db/migrations/2026-11-21-0910-create-reports-and-projects.ts';
import * as createWebSessions from '../../src/db/migrations/2026-11-22-0900-create-web-sessions.ts';
import * as moveReportResults from '../../src/db/migrations/2026-11-22-1000-move-report-results-to-own-table.ts';
import * as storedSummaries from '../../src/db/migrations/2026-11-22-1100-stored-report-summaries.ts';
import type { ReportResult } from '../../src/db/tables/report.table.ts';
import { tableColumns } from '../support/schema.ts';
import { testDialects, withUnmigratedDatabase } from '../support/databases.ts';

const NOW = '2026-11-21T10:00:00.000Z';
const PAGE = { final_url: 'https://a.com/x', status_code: 200, redirects: [], content_type: 'text/html', charset: 'utf-8', http_version: '1.1', bytes: 10, load_time_ms: 5 };

function report(userId: number, url: string, passwordHash: string | null, result: ReportResult, rank: number) {
  return {
    user_id: userId,
    url,
    url_lower: url.toLowerCase(),
    project: 'a.com',
    privacy: passwordHash === null ? 0 : 2,
    password_hash: passwordHash,
    result,
    result_rank: rank,
    score: 40 + rank * 20,
    issues_high: 3 - rank,
    issues_medium: 1,
    issues_low: 2,
    page: JSON.stringify({ ...PAGE, final_url: url }),
    generated_at: NOW,
    created_at: NOW,
    updated_at: '2026-11-21T11:00:00.000Z',
  };
}

/** The list item as the application wrote it when that migration was made. */
function summaryJson(row: ReturnType<typeof report>): string {
  return JSON.stringify({
    url: row.url,
    project: row.project,
    privacy: row.privacy,
    password: row.password_hash !== null,
    result: row.result,
    score: row.score,
    issues: { high: row.issues_high, medium: row.issues_medium, low: row.issues_low },
    page: JSON.parse(row.page),
    generated_at: row.generated_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  });
}

describe.each(testDialects())('storing report summaries [%s]', (dialect) => {
  it('fills in every existing report\'s summary and a zero counts version, and down drops both', async () => {
    await withUnmigratedDatabase(dialect, async (db) => {
      for (const migration of [createUsersAndApiKeys, createReportsAndProjects, createWebSessions, moveReportResults]) await migration.up(db);
      const { id: userId } = await db
        .insertInto('users')
        .values({ email: 'a@example.com', is_admin: 0, created_at: NOW })
        .returning('id')
        .executeTakeFirstOrThrow();
      const before = [
        report(userId, 'https://a.com/1', null, 'bad', 0),
        report(userId, 'https://a.com/Ünïcode "quoted"', 'scrypt$hash', 'good', 2),
      ];
      const ids = (await db.insertInto('reports').values(before).returning('id').execute()).map((row) => row.id).sort((a, b) => a - b);

      await storedSummaries.up(db);
      const stored = await db.selectFrom('reports').select(['id', 'summary_json']).orderBy('id').execute();
      expect(stored).toEqual(ids.map((id, index) => ({ id, summary_json: summaryJson(before[index]) })));
      expect(JSON.parse(stored[1].summary_json)).toMatchObject({ password: true, result: 'good', page: { final_url: 'https://a.com/Ünïcode "quoted"' } });
      expect(await db.selectFrom('users').select('report_counts_version').execute()).toEqual([{ report_counts_version: 0 }]);

      await storedSummaries.down(db);
      expect(await tableColumns(db, dialect, 'reports')).not.toContain('summary_json');
      expect(await tableColumns(db, dialect, 'projects')).not.toContain('summary_json');
      expect(await tableColumns(db, dialect, 'users')).not.toContain('report_counts_version');
      expect(await db.selectFrom('reports').select('id').orderBy('id').execute()).toEqual(ids.map((id) => ({ id })));
    });
  });
});
