// Crash safety: the real server is SIGKILLed in the middle of a burst of creates, updates (privacy,
// and regenerations that change a verdict), report deletes and project deletes from two accounts, then restarted on
// the same database. Afterwards the database is intact, every report answered 201 is there unless a
// project delete may have taken it, every report there was asked for, every project's counts match
// its reports, and no row is left without its parent. On SQLite and, with TEST_DATABASE_URL, on
// PostgreSQL.
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/database.ts';
import { openDatabase } from '../../src/db/open-database.ts';
import { createAccountService } from '../../src/services/account.service.ts';
import { createScratchDatabase, TEST_SECRET_KEY, testDialects, type ScratchDatabase } from '../support/databases.ts';
import { goodPage, html, startSite, type Handler, type Site } from '../support/site-server.ts';
import { BAD_PAGE, VERDICT_PAGES } from '../support/api-fixtures.ts';
import { killServerProcesses, startServerProcess, type ServerProcess } from '../support/server-process.ts';

const ADMIN_KEY = 'pg_crash-safety-admin-key-0123456789abcdef';
const WORKERS = 12;
/**
 * Answered responses before the kill: far enough into the burst that every kind of write is in flight.
 * The kill also waits until every kind has been answered at least once (report deletes need a report
 * made first and are a twentieth of the ops, so 150 answers alone were sometimes not enough), but not
 * past MAX_BEFORE_KILL answers, where the check below then says which kind never came.
 */
const KILL_AFTER = 150;
const MAX_BEFORE_KILL = 1_500;
const KINDS = ['create', 'update', 'delete-report', 'delete-project'] as const;
const PATHS = ['/good', '/decent', '/bad', '/flip'];

interface Op {
  account: number;
  kind: (typeof KINDS)[number];
  project: string;
  /** The report an update or delete targets, or the one a create made. */
  id?: number;
  /** Client-side event order: the server's commit lies between sentAt and answeredAt. */
  sentAt: number;
  answeredAt?: number;
  status?: number;
}

/** Every verdict, and a page that alternates between good and bad so regenerations move tallies. */
function crashSiteRoutes(): Record<string, Handler> {
  let flips = 0;
  return {
    '/good': VERDICT_PAGES.good,
    '/decent': VERDICT_PAGES.decent,
    '/bad': VERDICT_PAGES.bad,
    '/flip': (request, response) => html(flips++ % 2 === 0 ? goodPage() : BAD_PAGE)(request, response),
  };
}

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  killServerProcesses();
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe.each(testDialects())('a SIGKILL in the middle of a burst of writes [%s]', (dialect) => {
  it('leaves the database intact, every answered write kept and every project in step', { timeout: 120_000 }, async () => {
    const scratch: ScratchDatabase = await createScratchDatabase(dialect);
    cleanups.push(() => scratch.drop());
    const sites: Site[] = [];
    for (let i = 0; i < 3; i++) sites.push(await startSite(crashSiteRoutes()));
    cleanups.push(async () => {
      for (const site of sites) await site.close();
    });

    // A second account, made before the server starts, so two accounts write side by side.
    const setup = await openDatabase(scratch.databaseUrl);
    const second = await createAccountService(setup.db).createUser(`second-${process.pid}@example.test`, false);
    await setup.close();
    const keys = [ADMIN_KEY, second.apiKey];

    const env = {
      DATABASE_URL: scratch.databaseUrl,
      PAGEGRADE_SECRET_KEY: TEST_SECRET_KEY,
      PAGEGRADE_ADMIN_KEY: ADMIN_KEY,
      PAGEGRADE_ALLOW_PRIVATE_URLS: '1',
      PAGEGRADE_RATE_LIMIT: '1000000',
      PAGEGRADE_MAX_ANALYSES_PER_ACCOUNT: '64',
      LOG_LEVEL: 'silent',
    };
    const first = await startServerProcess(env);
    const ops = await burstUntilKilled(first, keys, sites);

    const restarted = await startServerProcess(env);
    await expectAnswersKept(restarted, keys, ops);
    restarted.child.kill('SIGTERM');
    expect(await restarted.exited).toEqual({ code: 0, signal: null });
    await expectDatabaseConsistent(scratch);
  });
});

async function burstUntilKilled(server: ServerProcess, keys: string[], sites: Site[]): Promise<Op[]> {
  const ops: Op[] = [];
  const created: { account: number; id: number; project: string }[] = [];
  let clock = 0;
  let answered = 0;
  const kindsAnswered = new Set<Op['kind']>();
  let killed = false;
  const projectOf = (site: Site) => new URL(site.origin).host;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)];

  async function send(op: Op, method: string, path: string, body?: Record<string, unknown>): Promise<unknown> {
    ops.push(op);
    try {
      const response = await fetch(`${server.origin}/api/v1${path}`, {
        method,
        headers: {
          authorization: `Bearer ${keys[op.account]}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const parsed = await response.json();
      op.status = response.status;
      op.answeredAt = ++clock;
      answered += 1;
      kindsAnswered.add(op.kind);
      const due = answered >= KILL_AFTER && kindsAnswered.size === KINDS.length;
      if (!killed && (due || answered >= MAX_BEFORE_KILL)) {
        killed = true;
        server.child.kill('SIGKILL');
      }
      return parsed;
    } catch {
      // Killed with the request in flight: unanswered, so it may or may not have been committed.
      return undefined;
    }
  }

  async function worker(): Promise<void> {
    while (!killed) {
      const account = Math.floor(Math.random() * keys.length);
      const mine = created.filter((report) => report.account === account);
      const roll = Math.random();
      if (roll < 0.15) {
        const project = projectOf(pick(sites));
        await send({ account, kind: 'delete-project', project, sentAt: ++clock }, 'DELETE', `/projects/${encodeURIComponent(project)}`);
      } else if (roll < 0.2 && mine.length > 0) {
        const target = pick(mine);
        await send({ account, kind: 'delete-report', project: target.project, id: target.id, sentAt: ++clock }, 'DELETE', `/reports/${target.id}`);
      } else if (roll < 0.5 && mine.length > 0) {
        const target = pick(mine);
        const body = Math.random() < 0.5 ? { results: 1 } : { privacy: Math.floor(Math.random() * 2) };
        await send({ account, kind: 'update', project: target.project, id: target.id, sentAt: ++clock }, 'PUT', `/reports/${target.id}`, body);
      } else {
        const site = pick(sites);
        const op: Op = { account, kind: 'create', project: projectOf(site), sentAt: ++clock };
        const parsed = (await send(op, 'POST', '/reports', { url: site.url(pick(PATHS)) })) as { data?: { id: number } } | undefined;
        if (op.status === 201 && parsed?.data) {
          op.id = parsed.data.id;
          created.push({ account, id: op.id, project: op.project });
        }
      }
    }
  }

  await Promise.all(Array.from({ length: WORKERS }, worker));
  expect(await server.exited).toEqual({ code: null, signal: 'SIGKILL' });
  // The burst really was mixed and really was cut: every kind answered, some left unanswered.
  for (const kind of KINDS) {
    expect(ops.some((op) => op.kind === kind && op.status !== undefined), kind).toBe(true);
  }
  expect(ops.some((op) => op.status === undefined)).toBe(true);
  return ops;
}

const EXPECTED_STATUSES: Record<Op['kind'], number[]> = {
  create: [201],
  // 404: a delete took the report first.
  update: [200, 404],
  'delete-report': [200, 404],
  // 404: the project was already gone (deleted, or never had a report yet).
  'delete-project': [200, 404],
};

async function expectAnswersKept(server: ServerProcess, keys: string[], ops: Op[]): Promise<void> {
  for (const op of ops) {
    if (op.status !== undefined) expect(EXPECTED_STATUSES[op.kind], JSON.stringify(op)).toContain(op.status);
  }
  const get = (account: number, path: string) =>
    fetch(`${server.origin}/api/v1${path}`, { headers: { authorization: `Bearer ${keys[account]}` } });

  for (const report of ops.filter((op) => op.kind === 'create' && op.status === 201)) {
    const takers = ops.filter(
      (d) =>
        d.account === report.account &&
        ((d.kind === 'delete-project' && d.project === report.project) || (d.kind === 'delete-report' && d.id === report.id)),
    );
    // A delete can have taken the report if it may have committed after the report did.
    const mayBeGone = takers.some((d) => (d.status === 200 || d.status === undefined) && (d.answeredAt ?? Infinity) > report.sentAt);
    const mustBeGone = takers.some((d) => d.status === 200 && d.sentAt > report.answeredAt!);
    const response = await get(report.account, `/reports/${report.id}`);
    if (mustBeGone) expect(response.status, `report ${report.id} outlived its project's delete`).toBe(404);
    else if (!mayBeGone) {
      expect(response.status, `report ${report.id} was answered 201 and lost`).toBe(200);
      const shown = (await response.json()) as { data: { project: string; results: Record<string, unknown> } };
      expect(shown.data.project).toBe(report.project);
      expect(Object.keys(shown.data.results).length).toBeGreaterThan(40);
    }
  }

  // Every report present was asked for: answered 201, or in flight when the server died.
  for (let account = 0; account < keys.length; account++) {
    const answeredIds = new Set(ops.filter((op) => op.account === account && op.kind === 'create' && op.status === 201).map((op) => op.id));
    const present = await listAll(get, account);
    const unexplained = present.filter((report) => !answeredIds.has(report.id));
    for (const report of unexplained) {
      const inFlight = ops.filter((op) => op.account === account && op.kind === 'create' && op.status === undefined && op.project === report.project);
      expect(inFlight.length, `report ${report.id} was never asked for`).toBeGreaterThan(0);
    }
    for (const report of present) {
      const shown = await get(account, `/reports/${report.id}`);
      expect(shown.status, `report ${report.id} is listed but cannot be shown`).toBe(200);
    }
  }
}

async function listAll(get: (account: number, path: string) => Promise<Response>, account: number) {
  const reports: { id: number; project: string }[] = [];
  for (let page = 1; ; page++) {
    const list = (await (await get(account, `/reports?per_page=100&page=${page}`)).json()) as {
      data: { id: number; project: string }[];
      links: { next: string | null };
    };
    reports.push(...list.data);
    if (list.links.next === null) return reports;
  }
}

async function expectDatabaseConsistent(scratch: ScratchDatabase): Promise<void> {
  const handle = createDb(scratch.databaseUrl);
  try {
    const { db } = handle;
    if (handle.dialect === 'sqlite') {
      const integrity = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(db);
      expect(integrity.rows).toEqual([{ integrity_check: 'ok' }]);
      // Every foreign key of every table (orphan results, keys, sessions...); PostgreSQL enforces them always.
      const orphans = await sql`pragma foreign_key_check`.execute(db);
      expect(orphans.rows).toEqual([]);
    }
    const projects = await sql<{ name: string; expected: string; actual: string }>`
      select p.name,
        p.reports_count || '/' || p.good_count || '/' || p.decent_count || '/' || p.bad_count as expected,
        count(r.id) || '/' || count(case when r.result = 'good' then 1 end) || '/'
          || count(case when r.result = 'decent' then 1 end) || '/' || count(case when r.result = 'bad' then 1 end) as actual
      from projects p left join reports r on r.organization_id = p.organization_id and r.project = p.name
      group by p.id, p.name, p.reports_count, p.good_count, p.decent_count, p.bad_count`.execute(db);
    expect(projects.rows.length).toBeGreaterThan(0);
    for (const row of projects.rows) expect(row.actual, `project ${row.name}`).toBe(row.expected);
    const withoutProject = await sql<{ id: number }>`
      select r.id from reports r
      where not exists (select 1 from projects p where p.organization_id = r.organization_id and p.name = r.project)`.execute(db);
    expect(withoutProject.rows).toEqual([]);
    const withoutOwner = await sql<{ id: number }>`
      select id from reports where organization_id not in (select id from organizations)
      union all select id from projects where organization_id not in (select id from organizations)
      union all select id from api_keys where user_id not in (select id from users)
      union all select id from organizations where personal_user_id is not null and personal_user_id not in (select id from users)`.execute(db);
    expect(withoutOwner.rows).toEqual([]);
  } finally {
    await handle.destroy();
  }
}
