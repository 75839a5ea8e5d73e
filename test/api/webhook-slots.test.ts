// Webhook deliveries never hold the analysis slots (docs/production.md, PAGEGRADE_WEBHOOK_CONCURRENCY):
// one account's 100 deliveries to a receiver that never answers wait on the network in slots of their
// own, at most PAGEGRADE_WEBHOOK_CONCURRENCY at once, while another account's background analysis
// runs at once. A delivery still waiting for a slot is pending, with no attempt counted.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { goodPage, html, startSite, type Site } from '../support/site-server.ts';
import { body, call, createReport, showReport } from '../support/api-fixtures.ts';
import { waitFor } from '../queue/engines.ts';

/** Reads each request whole and never answers it; counts how many wait at once. */
async function startSilentReceiver() {
  const waiting = new Set<ServerResponse>();
  const state = { received: 0, mostWaiting: 0, waiting: () => waiting.size };
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    request.on('end', () => {
      state.received += 1;
      waiting.add(response);
      state.mostWaiting = Math.max(state.mostWaiting, waiting.size);
      response.on('close', () => waiting.delete(response));
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return {
    ...state,
    get received() {
      return state.received;
    },
    get mostWaiting() {
      return state.mostWaiting;
    },
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    close: () =>
      new Promise<void>((closed) => {
        server.closeAllConnections();
        server.close(() => closed());
      }),
  };
}

describe('webhook deliveries beside the analysis slots [sqlite, embedded queue]', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it('100 deliveries to a receiver that never answers: another account\'s async=1 report is done within 15 s', { timeout: 60_000 }, async () => {
    const receiver = await startSilentReceiver();
    const t: TestApp = await startTestApp('sqlite', { webhookRetryMs: [1000, 2000] });
    const site: Site = await startSite({ '/page': html(goodPage()) });
    // The receiver first: its connections close, and the deliveries waiting on it end at once.
    cleanups.push(() => receiver.close(), () => t.close(), () => site.close());
    expect(t.config).toMatchObject({ workers: 4, webhookConcurrency: 8 });

    const noisy = await t.createAccount('noisy');
    const webhookIds: number[] = [];
    for (let index = 0; index < 20; index++) {
      const response = await call(t, noisy, 'POST', '/api/v1/webhooks', { url: receiver.url(`/hook-${index}`), events: 'report.completed' });
      expect(response.statusCode, response.body).toBe(201);
      webhookIds.push(body(response).data.id);
    }
    for (let index = 0; index < 5; index++) await createReport(t, noisy, site.url('/page'));
    await waitFor(() => receiver.waiting() === 8, 'eight deliveries to wait on the receiver');

    const quiet = await t.createAccount('quiet');
    const startedAt = Date.now();
    const queued = await call(t, quiet, 'POST', '/api/v1/reports', { url: site.url('/page'), async: 1 });
    expect(queued.statusCode, queued.body).toBe(202);
    const id = body(queued).data.id;
    await waitFor(async () => (await showReport(t, quiet, id)).state === 'done', 'the quiet account\'s report to be done', 15_000);
    expect(Date.now() - startedAt).toBeLessThan(15_000);

    // Deliveries reached the receiver, never more at once than PAGEGRADE_WEBHOOK_CONCURRENCY.
    expect(receiver.received).toBeGreaterThanOrEqual(8);
    expect(receiver.mostWaiting).toBe(8);
    const deliveries = [];
    for (const webhookId of webhookIds) {
      deliveries.push(...body(await call(t, noisy, 'GET', `/api/v1/webhooks/${webhookId}/deliveries`)).data);
    }
    expect(deliveries).toHaveLength(100);
    // Those still waiting for a slot are pending, and their wait is no attempt.
    const notTried = deliveries.filter((delivery) => delivery.attempts === 0);
    expect(notTried.length).toBeGreaterThan(50);
    expect(notTried.every((delivery) => delivery.status === 'pending')).toBe(true);
  });
});
