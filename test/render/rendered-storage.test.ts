// `rendered` kept per run on both dialects, with a stand-in browser (no Chromium needed): the
// comparison and the check come from the real pipeline, the DOM from the stand-in. A run not
// rendered has `rendered: null`; each run keeps its own; list items leave it out.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../src/config.ts';
import { buildApp } from '../../src/http/app.ts';
import type { Renderer } from '../../src/render/renderer.ts';
import { analyzerFromConfig } from '../../src/services/index.ts';
import { body, type Body } from '../support/api-fixtures.ts';
import { createScratchDatabase, TEST_SECRET_KEY, testDialects, type ScratchDatabase } from '../support/databases.ts';
import { html, startSite, type Site } from '../support/site-server.ts';

const RAW = '<!doctype html><html lang="en"><head><title>Shell</title></head><body><div id="app"></div></body></html>';
const AFTER_SCRIPTS = '<html><head><title>Built by scripts</title></head><body><h1>Built</h1><a href="/more">More</a></body></html>';

/** Answers every page with the same DOM, as if scripts had built it. */
const standInBrowser: Renderer = {
  render: async (url) => ({ ok: true, html: AFTER_SCRIPTS, finalUrl: url, requests: 2, bytes: 500 }),
  lab: async () => ({ ok: false, reason: 'this stand-in makes no lab audit' }),
  pdf: async () => {
    throw new Error('this stand-in prints no PDF');
  },
  close: async () => {},
};

describe.each(testDialects())('rendered, stored per run [%s]', (dialect) => {
  let scratch: ScratchDatabase;
  let app: FastifyInstance;
  let site: Site;
  let auth: { authorization: string };

  beforeAll(async () => {
    scratch = await createScratchDatabase(dialect);
    const config: Config = {
      ...loadConfig({}),
      databaseUrl: scratch.databaseUrl,
      allowPrivateUrls: true,
      logLevel: false,
      rateLimitPerMinute: 10_000,
      secretKey: TEST_SECRET_KEY,
      // Any executable will do: rendering is "available", and the stand-in does it.
      chromiumPath: process.execPath,
    };
    app = await buildApp(config, { analyzer: analyzerFromConfig(config, undefined, standInBrowser) });
    const { apiKey } = await app.services.accounts.createUser(`rendered-${dialect}-${process.pid}@example.test`, false);
    auth = { authorization: `Bearer ${apiKey}` };
    site = await startSite({ '/': html(RAW) });
  });
  afterAll(async () => {
    await site?.close();
    await app?.close();
    await scratch?.drop();
  });

  const send = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: Record<string, unknown>): Promise<Body> => {
    const response = await app.inject({ method, url, headers: auth, payload });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return body(response).data;
  };

  it('keeps each run\'s rendering, null for a run that was not rendered', async () => {
    const created = await send('POST', '/api/v1/reports', { url: site.url('/'), render: 1 });
    const expected = {
      title: { raw: 'Shell', rendered: 'Built by scripts' },
      h1: { raw: [], rendered: ['Built'] },
      links: { raw: 0, rendered: 1, only_rendered: [site.url('/more')], internal: { raw: 0, rendered: 1, only_rendered: 1 } },
    };
    expect(created.rendered).toMatchObject(expected);
    expect(created.results.javascript_dependency.passed).toBe(false);
    expect((await send('GET', `/api/v1/reports/${created.id}`)).rendered).toEqual(created.rendered);

    const plain = await send('PUT', `/api/v1/reports/${created.id}`, { results: 1 });
    expect(plain.rendered).toBeNull();
    expect((await send('GET', `/api/v1/reports/${created.id}`)).rendered).toBeNull();

    const [second, first] = await send('GET', `/api/v1/reports/${created.id}/runs`);
    expect(first).not.toHaveProperty('rendered');
    expect((await send('GET', `/api/v1/reports/${created.id}/runs/${first.id}`)).rendered).toEqual(created.rendered);
    expect((await send('GET', `/api/v1/reports/${created.id}/runs/${second.id}`)).rendered).toBeNull();

    const [item] = await send('GET', '/api/v1/reports');
    expect(item).not.toHaveProperty('rendered');
    expect(item).not.toHaveProperty('results');
  });
});
