// The embedded engine (no Redis): the server runs background analyses itself, and a server SIGKILLed
// mid-analysis loses nothing. Started again on the same database, it finds the jobs whose lease ran
// out and analyses those reports to the end, once each.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { goodPage, holdGate, html, startSite } from '../support/site-server.ts';
import { killProcess, newApiKey, startServerProcess, stopAll, type ServerProcess } from '../support/processes.ts';
import { waitFor } from '../queue/engines.ts';

const dir = mkdtempSync(join(tmpdir(), 'pagegrade-resume-'));
afterAll(() => {
  stopAll();
  rmSync(dir, { recursive: true, force: true });
});

it('a server SIGKILLed mid-analysis resumes the reports once started again', { timeout: 90_000 }, async () => {
  const adminKey = newApiKey();
  const env = {
    DATABASE_URL: `sqlite:${join(dir, 'pagegrade.db')}`,
    PAGEGRADE_ADMIN_KEY: adminKey,
    PAGEGRADE_ALLOW_PRIVATE_URLS: '1',
    PAGEGRADE_WORKERS: '2',
    PAGEGRADE_JOB_LEASE_MS: '1500',
  };
  const site = await startSite();
  const gate = holdGate();
  const page = gate.hold(html(goodPage()));
  const fetched: string[] = [];
  for (const path of ['/first', '/second']) {
    site.route(path, (request, response) => {
      fetched.push(path);
      page(request, response);
    });
  }
  const api = async (server: ServerProcess, method: string, path: string, form?: Record<string, string>) => {
    const response = await fetch(`${server.origin}${path}`, {
      method,
      headers: { authorization: `Bearer ${adminKey}`, ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    return (await response.json()) as any;
  };
  try {
    const first = await startServerProcess(env);
    const ids = [
      (await api(first, 'POST', '/api/v1/reports', { url: site.url('/first'), async: '1' })).data.id,
      (await api(first, 'POST', '/api/v1/reports', { url: site.url('/second'), async: '1' })).data.id,
    ];
    await waitFor(() => fetched.length === 2, 'both analyses to ask for their page');
    await killProcess(first);
    gate.release();

    const second = await startServerProcess(env);
    const states = async () => (await Promise.all(ids.map((id) => api(second, 'GET', `/api/v1/reports/${id}`)))).map((report) => report.data.state);
    await waitFor(async () => (await states()).every((state) => state === 'done'), 'the restarted server to finish both', 30_000);
    expect([...fetched].sort()).toEqual(['/first', '/first', '/second', '/second']);
    const list = await api(second, 'GET', '/api/v1/reports');
    expect(list.meta.total).toBe(2);
    expect(list.data.every((report: { result: string | null }) => report.result === 'good')).toBe(true);
  } finally {
    await site.close();
  }
});
