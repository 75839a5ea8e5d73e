// Secrets never reach the logs, and every log line is JSON a request can be traced through: the real
// server runs at LOG_LEVEL=trace (the most it ever writes) while requests carry a valid API key, a
// wrong one, report passwords in form and JSON bodies and in updates, cookies, and secrets a careless
// client put in the query string. Afterwards no secret appears anywhere in its output, every line
// parses as JSON, and every response's x-request-id is the reqId of that request's log lines.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { goodPage, html, startSite, type Site } from '../support/site-server.ts';
import { killServerProcesses, startServerProcess } from '../support/server-process.ts';

const ADMIN_KEY = 'pg_LOGSECRET-admin-key-d41d8cd98f00b204e9800998ecf8427e';
const SECRETS = {
  wrongKey: 'pg_LOGSECRET-wrong-key-0cc175b9c0f1b6a831c399e269772661',
  formPassword: 'LOGSECRET-form-password-92eb5ffee6ae2fec3ad71c777531578f',
  jsonPassword: 'LOGSECRET-json-password-4a8a08f09d37b73795649038408b5f33',
  updatedPassword: 'LOGSECRET-updated-password-8277e0910d750195b448797616e091ad',
  badJsonPassword: 'LOGSECRET-bad-json-password-e1671797c52e15f763380b45e841ec32',
  queryPassword: 'LOGSECRET-query-password-8fa14cdd754f91cc6554c9e71929cce7',
  queryKey: 'pg_LOGSECRET-query-key-c9f0f895fb98ab9159f51fd0297e236d',
  cookie: 'LOGSECRET-cookie-45c48cce2e2d7fbdea1afc51c7c6ad26',
  basicAuth: 'LOGSECRET-basic-auth-d3d9446802a44dcb1e1ea3c12d7e1e49',
  secretKey: 'LOGSECRET-secret-key-1679091c5a880faf6fb5e6087eb1b2dc',
};

const dir = mkdtempSync(join(tmpdir(), 'pagegrade-logs-'));
let site: Site | undefined;
afterAll(async () => {
  killServerProcesses();
  await site?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('logs', () => {
  it('carry no API key or password, are JSON, and trace each response by its request id', { timeout: 60_000 }, async () => {
    site = await startSite({ '/': html(goodPage()) });
    const server = await startServerProcess({
      DATABASE_URL: `sqlite:${join(dir, 'pagegrade.db')}`,
      PAGEGRADE_ADMIN_KEY: ADMIN_KEY,
      PAGEGRADE_ALLOW_PRIVATE_URLS: '1',
      PAGEGRADE_SECRET_KEY: SECRETS.secretKey,
      LOG_LEVEL: 'trace',
    });
    const auth = { authorization: `Bearer ${ADMIN_KEY}` };
    const responses: Response[] = [];
    const send = async (path: string, init: RequestInit = {}) => {
      const response = await fetch(`${server.origin}${path}`, init);
      await response.arrayBuffer();
      responses.push(response);
      return response;
    };
    const form = (fields: Record<string, string>) => ({
      headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
    const json = (body: string) => ({ headers: { ...auth, 'content-type': 'application/json' }, body });

    expect((await send('/api/v1/account', { headers: auth })).status).toBe(200);
    expect((await send('/api/v1/account', { headers: { authorization: `Bearer ${SECRETS.wrongKey}` } })).status).toBe(401);
    expect((await send('/api/v1/account', { headers: { authorization: `Basic ${SECRETS.basicAuth}` } })).status).toBe(401);
    const created = await send('/api/v1/reports', { method: 'POST', ...form({ url: site.url('/'), privacy: '2', password: SECRETS.formPassword }) });
    expect(created.status).toBe(201);
    const id = Number(created.headers.get('location')!.split('/').pop());
    const createdJson = await send('/api/v1/reports', {
      method: 'POST',
      ...json(JSON.stringify({ url: site.url('/'), privacy: 2, password: SECRETS.jsonPassword })),
    });
    expect(createdJson.status).toBe(201);
    expect((await send(`/api/v1/reports/${id}`, { method: 'PUT', ...form({ password: SECRETS.updatedPassword }) })).status).toBe(200);
    // Invalid input that carries a secret: the JSON parser's error must not quote the body into a log.
    const badJson = await send('/api/v1/reports', { method: 'POST', ...json(`{"password": "${SECRETS.badJsonPassword}", `) });
    expect(badJson.status).toBe(422);
    const tooLong = await send('/api/v1/reports', { method: 'POST', ...form({ url: 'x', privacy: '2', password: `${SECRETS.formPassword}${'x'.repeat(200)}` }) });
    expect(tooLong.status).toBe(422);
    const query = `password=${SECRETS.queryPassword}&api_key=${SECRETS.queryKey}&search=kept`;
    expect((await send(`/api/v1/reports?${query}`, { headers: { ...auth, cookie: `session=${SECRETS.cookie}` } })).status).toBe(200);
    expect((await send(`/no-such-page?token=${SECRETS.queryKey}`, { headers: auth })).status).toBe(404);
    // A webhook's secret is in its create answer only, and the key it is stored encrypted with nowhere.
    const webhook = await fetch(`${server.origin}/api/v1/webhooks`, { method: 'POST', ...form({ url: site.url('/hook') }) });
    expect(webhook.status).toBe(201);
    const webhookSecret: string = (await webhook.json()).data.secret;
    const webhooks = await send('/api/v1/webhooks', { headers: auth });
    expect(webhooks.status).toBe(200);

    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    const output = server.stdout() + server.stderr();

    const webhookSecrets = { webhookSecret, webhookSecretBytes: webhookSecret.slice('whsec_'.length) };
    for (const [name, secret] of Object.entries({ adminKey: ADMIN_KEY, ...SECRETS, ...webhookSecrets })) {
      expect(output.includes(secret), `${name} reached the logs`).toBe(false);
    }

    const lines = output.split('\n').filter((line) => line !== '');
    const entries = lines.map((line) => {
      try {
        return JSON.parse(line) as { reqId?: string; msg?: string; req?: { url: string }; res?: { statusCode: number } };
      } catch {
        throw new Error(`a log line is not JSON: ${line}`);
      }
    });
    // Query parameters survive for diagnosis; only secret-looking values are blanked.
    expect(entries.some((entry) => entry.req?.url.includes('search=kept') && entry.req.url.includes('password=[Redacted]'))).toBe(true);
    for (const entry of entries) {
      if (entry.req || entry.res) expect(entry.reqId, JSON.stringify(entry)).toMatch(/^[0-9a-f-]{36}$/);
    }
    for (const response of responses) {
      const requestId = response.headers.get('x-request-id');
      expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
      const traced = entries.filter((entry) => entry.reqId === requestId);
      expect(traced.map((entry) => entry.msg)).toEqual(expect.arrayContaining(['incoming request', 'request completed']));
      expect(traced.find((entry) => entry.res)?.res?.statusCode).toBe(response.status);
    }
  });
});
