// The migration that brings organisations: every existing account gets its personal organisation
// (its id the account's, named by its e-mail, the account its only member, as owner) holding exactly
// what the account had, ids kept; keys become write keys, not bound; sessions stay signed in. Then the
// app on that database answers the account's old key exactly as before. Down gives it all back.
import { describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { loadConfig } from '../../src/config.ts';
import { createDb } from '../../src/db/database.ts';
import { migrateTo } from '../../src/db/migrate.ts';
import * as organizations from '../../src/db/migrations/2026-12-04-1200-organizations.ts';
import { buildApp } from '../../src/http/app.ts';
import { hashApiKey } from '../../src/security/hashing.ts';
import { createScratchDatabase, TEST_SECRET_KEY, testDialects, withUnmigratedDatabase } from '../support/databases.ts';
import { tableColumns } from '../support/schema.ts';

const AT = '2026-12-04T12:00:00.000Z';
const BEFORE = '2026-12-04-1100-crawl-rich-result-errors';
const OWNED = ['reports', 'projects', 'crawls', 'webhooks'] as const;
const PAGE = JSON.stringify({
  final_url: 'https://example.test/', status_code: 200, redirects: [], content_type: 'text/html', charset: 'utf-8', http_version: '1.1', bytes: 100, load_time_ms: 5,
});

/** An account as the schema before organisations held it: a key, a session, a report with a run, its project, a crawl, a webhook with a delivery. */
async function seedAccount(db: Kysely<any>, email: string, secret: string) {
  const { id: userId } = await db.insertInto('users').values({ email, is_admin: 0, created_at: AT }).returning('id').executeTakeFirstOrThrow();
  const { id: keyId } = await db
    .insertInto('api_keys')
    .values({ user_id: userId, key_hash: hashApiKey(secret), key_prefix: secret.slice(0, 12), label: 'laptop', created_at: AT })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.insertInto('web_sessions').values({ token_hash: `session-of-${email}`, user_id: userId, api_key_id: keyId, created_at: AT, expires_at: '2099-01-01T00:00:00.000Z' }).execute();
  const host = email.split('@')[0] + '.test';
  const { id: reportId } = await db
    .insertInto('reports')
    .values({
      user_id: userId, url: `https://${host}/`, url_lower: `https://${host}/`, project: host, privacy: 1, result_rank: 2, result: 'good', score: 90,
      issues_high: 0, issues_medium: 0, issues_low: 1, page: PAGE, generated_at: AT,
      state: 'done', runs_count: 1, last_run_number: 1, created_at: AT, updated_at: AT,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.insertInto('report_runs').values({
    report_id: reportId, number: 1, trigger: 'create', result: 'good', score: 90, issues_high: 0, issues_medium: 0, issues_low: 1,
    page: PAGE, results: '{}', generated_at: AT,
  }).execute();
  await db.insertInto('projects').values({ user_id: userId, name: host, name_lower: host, reports_count: 1, good_count: 1, decent_count: 0, bad_count: 0, created_at: AT, updated_at: AT }).execute();
  const { id: crawlId } = await db
    .insertInto('crawls')
    .values({ user_id: userId, url: `https://${host}/`, project: host, state: 'done', max_pages: 5, max_depth: 2, use_sitemap: 0, privacy: 0, render: 0, created_at: AT })
    .returning('id')
    .executeTakeFirstOrThrow();
  const { id: webhookId } = await db
    .insertInto('webhooks')
    .values({ user_id: userId, url: `https://${host}/hook`, events: 'report.completed', secret_encrypted: 'sealed', created_at: AT })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.insertInto('webhook_deliveries').values({ id: `msg_${email}`, webhook_id: webhookId, event: 'report.completed', payload: '{}', status: 'delivered', created_at: AT }).execute();
  return { userId: Number(userId), keyId: Number(keyId), reportId: Number(reportId), crawlId: Number(crawlId), webhookId: Number(webhookId), host };
}

async function ownerColumn(db: Kysely<any>, column: string) {
  const rows: Record<string, unknown[]> = {};
  for (const table of OWNED) {
    rows[table] = (await db.selectFrom(table).select(['id', `${column} as owner`]).orderBy('id').execute()).map((row) => [Number(row.id), Number(row.owner)]);
  }
  return rows;
}

describe.each(testDialects())('organisations migration [%s]', (dialect) => {
  it('up gives every account its personal organisation, with its id, holding what the account had; down gives it back', async () => {
    await withUnmigratedDatabase(dialect, async (db) => {
      await migrateTo(db, BEFORE);
      const ada = await seedAccount(db, 'ada@example.test', 'pg_adaSecretKeyForTheMigration0');
      const bob = await seedAccount(db, 'bob@example.test', 'pg_bobSecretKeyForTheMigration0');
      const before = await ownerColumn(db, 'user_id');

      await organizations.up(db);
      const orgs = await db.selectFrom('organizations').select(['id', 'name', 'personal_user_id', 'brand_name', 'created_at']).orderBy('id').execute();
      expect(orgs.map((org) => ({ ...org, id: Number(org.id), personal_user_id: Number(org.personal_user_id) }))).toEqual([
        { id: ada.userId, name: 'ada@example.test', personal_user_id: ada.userId, brand_name: null, created_at: AT },
        { id: bob.userId, name: 'bob@example.test', personal_user_id: bob.userId, brand_name: null, created_at: AT },
      ]);
      const members = await db.selectFrom('organization_members').select(['organization_id', 'user_id', 'role']).orderBy('id').execute();
      expect(members.map((m) => [Number(m.organization_id), Number(m.user_id), m.role])).toEqual([
        [ada.userId, ada.userId, 'owner'],
        [bob.userId, bob.userId, 'owner'],
      ]);
      // Every row kept its id and its owner's value, now an organisation's id.
      expect(await ownerColumn(db, 'organization_id')).toEqual(before);
      for (const table of OWNED) expect(await tableColumns(db, dialect, table)).not.toContain('user_id');
      expect((await db.selectFrom('report_runs').select('report_id').orderBy('report_id').execute()).map((r) => Number(r.report_id))).toEqual([ada.reportId, bob.reportId]);
      expect(await db.selectFrom('webhook_deliveries').select('id').orderBy('id').execute()).toEqual([{ id: 'msg_ada@example.test' }, { id: 'msg_bob@example.test' }]);
      const keys = await db.selectFrom('api_keys').select(['id', 'scope', 'organization_id']).orderBy('id').execute();
      expect(keys.map((k) => [Number(k.id), k.scope, k.organization_id])).toEqual([[ada.keyId, 'write', null], [bob.keyId, 'write', null]]);
      expect(await db.selectFrom('web_sessions').select(['token_hash', 'organization_id']).orderBy('id').execute()).toEqual([
        { token_hash: 'session-of-ada@example.test', organization_id: null },
        { token_hash: 'session-of-bob@example.test', organization_id: null },
      ]);

      // The next organisation's id comes after the accounts' (the sequence was moved past them).
      const { id: next } = await db.insertInto('organizations').values({ name: 'Fernhill', created_at: AT, updated_at: AT }).returning('id').executeTakeFirstOrThrow();
      expect(Number(next)).toBeGreaterThan(bob.userId);
      // What a shared organisation owns has no account to go back to: down leaves it out.
      await db.insertInto('reports').values({
        organization_id: next, url: 'https://f.test/', url_lower: 'https://f.test/', project: 'f.test', privacy: 0, result_rank: -1, state: 'queued',
        runs_count: 0, last_run_number: 0, created_at: AT, updated_at: AT,
      }).execute();

      await organizations.down(db);
      expect(await ownerColumn(db, 'user_id')).toEqual(before);
      expect(await tableColumns(db, dialect, 'organizations')).toEqual([]);
      expect(await tableColumns(db, dialect, 'api_keys')).not.toContain('scope');
      expect((await db.selectFrom('users').select('email').orderBy('id').execute()).map((u) => u.email)).toEqual(['ada@example.test', 'bob@example.test']);
    });
  });

  it('after it, the app answers an account\'s old key exactly as before, in its personal organisation', async () => {
    const scratch = await createScratchDatabase(dialect);
    const seeding = createDb(scratch.databaseUrl);
    let ada: Awaited<ReturnType<typeof seedAccount>>;
    let bob: Awaited<ReturnType<typeof seedAccount>>;
    try {
      await migrateTo(seeding.db, BEFORE);
      ada = await seedAccount(seeding.db, 'ada@example.test', 'pg_adaSecretKeyForTheMigration0');
      bob = await seedAccount(seeding.db, 'bob@example.test', 'pg_bobSecretKeyForTheMigration0');
    } finally {
      await seeding.destroy();
    }
    const app = await buildApp({
      ...loadConfig({}), databaseUrl: scratch.databaseUrl, logLevel: 'error', allowPrivateUrls: true, analysisThreads: 0,
      secretKey: dialect === 'postgres' ? TEST_SECRET_KEY : undefined,
    });
    try {
      const auth = { authorization: 'Bearer pg_adaSecretKeyForTheMigration0' };
      const get = async (url: string) => {
        const response = await app.inject({ method: 'GET', url, headers: auth });
        return { status: response.statusCode, body: response.json() };
      };
      const reports = await get('/api/v1/reports');
      expect(reports.status).toBe(200);
      expect(reports.body.data.map((r: { id: number; organization: number; privacy: number }) => [r.id, r.organization, r.privacy])).toEqual([[ada.reportId, ada.userId, 1]]);
      expect((await get(`/api/v1/reports/${ada.reportId}`)).status).toBe(200);
      expect(await get(`/api/v1/reports/${bob.reportId}`)).toEqual({ status: 404, body: { message: 'Resource not found.', status: 404 } });
      expect((await get('/api/v1/projects')).body.data.map((p: { project: string }) => p.project)).toEqual([ada.host]);
      expect((await get('/api/v1/crawls')).body.data.map((c: { id: number }) => c.id)).toEqual([ada.crawlId]);
      expect((await get(`/api/v1/crawls/${bob.crawlId}`)).status).toBe(404);
      expect((await get('/api/v1/webhooks')).body.data.map((w: { id: number }) => w.id)).toEqual([ada.webhookId]);
      expect((await get(`/api/v1/webhooks/${ada.webhookId}/deliveries`)).body.data.map((d: { id: string }) => d.id)).toEqual(['msg_ada@example.test']);
      const account = await get('/api/v1/account');
      expect(account.body.data).toEqual({
        id: ada.userId, email: 'ada@example.test', created_at: AT,
        key: { prefix: 'pg_adaSecret', name: 'laptop', scope: 'write', organization: null },
      });
      const orgs = await get('/api/v1/organizations');
      expect(orgs.body.data).toEqual([expect.objectContaining({ id: ada.userId, name: 'ada@example.test', personal: true, role: 'owner', members_count: 1 })]);
    } finally {
      await app.close();
      await scratch.drop();
    }
  });
});
