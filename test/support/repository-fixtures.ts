// Rows the repository tests start from: a fresh account each (tests share one database per dialect
// and keep apart by account), and a report as the service would insert it.
import { randomUUID } from 'node:crypto';
import type { DbExecutor } from '../../src/repositories/executor.ts';
import { insertReportsBulk, type ReportInsert } from '../../src/repositories/report.repository.ts';
import { insertUser } from '../../src/repositories/user.repository.ts';

const FIXTURE_TIME = '2026-11-21T10:00:00.000Z';

/** A new account's personal organisation's id. */
export async function newOrganizationId(db: DbExecutor): Promise<number> {
  return (await insertUser(db, { email: `${randomUUID()}@example.com`, is_admin: 0, created_at: FIXTURE_TIME })).organization_id;
}

/** A good report of `overrides.url` (default https://example.com/), its project the url's host. */
export function reportInsert(organizationId: number, overrides: Partial<ReportInsert> = {}): ReportInsert {
  const url = overrides.url ?? 'https://example.com/';
  return {
    organization_id: organizationId,
    url,
    project: new URL(url).host,
    privacy: 0,
    password_hash: null,
    result: 'good',
    score: 90,
    issues_high: 0,
    issues_medium: 1,
    issues_low: 2,
    page: '{"final_url":"https://example.com/","status_code":200}',
    results: '{"title":{"passed":true}}',
    generated_at: FIXTURE_TIME,
    created_at: FIXTURE_TIME,
    updated_at: FIXTURE_TIME,
    ...overrides,
  };
}

/** A new account holding a report of each url (by default three, in two projects); its id. */
export async function accountWithReports(db: DbExecutor, urls = ['https://a.com/', 'https://a.com/pricing', 'https://b.com/']): Promise<number> {
  const organizationId = await newOrganizationId(db);
  await insertReportsBulk(db, urls.map((url) => reportInsert(organizationId, { url })));
  return organizationId;
}
