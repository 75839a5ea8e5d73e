// A page over PAGEGRADE_MAX_PAGE_BYTES is refused in words a person reads (docs/api.md, "Reports"):
// the limit in MiB and the setting's name, the same whether Content-Length declared the size, reading
// a chunked body met it, or decompressing did; the same in the synchronous 422 on url, in last_error
// of a background report and on the CLI's stderr (exit 3).
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { startSite, type Site } from '../support/site-server.ts';
import { body, call, expectInvalid, listReports, showReport, type Account } from '../support/api-fixtures.ts';
import { waitFor } from '../queue/engines.ts';
import { runInProcess } from '../cli/run-cli.ts';
import { LOOPBACK } from '../cli/run-binary.ts';

const LIMIT = 2097152;
const REASON = 'The page is larger than 2 MiB (PAGEGRADE_MAX_PAGE_BYTES).';
/** A page of 3 MiB of well-formed HTML. */
const BIG_PAGE = Buffer.from(`<!doctype html><title>Big</title><p>${'coffee '.repeat((3 * 1024 * 1024) / 7)}</p>`);

describe('a page over PAGEGRADE_MAX_PAGE_BYTES=2097152', () => {
  let t: TestApp;
  let site: Site;
  let account: Account;

  beforeAll(async () => {
    t = await startTestApp('sqlite', { maxPageBytes: LIMIT, workers: 1 });
    site = await startSite({
      '/declared': (_request, response) => {
        response.writeHead(200, { 'content-type': 'text/html', 'content-length': String(BIG_PAGE.length) });
        response.end(BIG_PAGE);
      },
      // No Content-Length: only reading the body finds out.
      '/chunked': (_request, response) => {
        response.writeHead(200, { 'content-type': 'text/html', 'transfer-encoding': 'chunked' });
        for (let start = 0; start < BIG_PAGE.length; start += 64 * 1024) response.write(BIG_PAGE.subarray(start, start + 64 * 1024));
        response.end();
      },
      // A few KiB on the wire, 3 MiB once decompressed.
      '/gzip': (_request, response) => {
        const compressed = gzipSync(BIG_PAGE);
        response.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip', 'content-length': String(compressed.length) });
        response.end(compressed);
      },
    });
    account = await t.createAccount('size');
  });
  afterAll(async () => {
    await site?.close();
    await t?.close();
  });

  it.each(['/declared', '/chunked', '/gzip'])('%s: 422 on url naming the limit in MiB and the setting, nothing stored', async (path) => {
    const messages = expectInvalid(await call(t, account, 'POST', '/api/v1/reports', { url: site.url(path) }), 'url');
    expect(messages).toEqual([`The page could not be analysed: ${REASON}`]);
    expect((await listReports(t, account)).meta.total).toBe(0);
  });

  it('in the background: the report is failed with the same words in last_error', async () => {
    const other = await t.createAccount('size-async');
    const response = await call(t, other, 'POST', '/api/v1/reports', { url: site.url('/gzip'), async: 1 });
    expect(response.statusCode, response.body).toBe(202);
    const id = body(response).data.id;
    let report = body(response).data;
    await waitFor(async () => (report = await showReport(t, other, id)).state === 'failed', `report ${id} to fail`);
    expect(report.last_error).toEqual({ message: `The page could not be analysed: ${REASON}` });
  });

  it('the CLI says the same and exits 3', async () => {
    const run = await runInProcess(['analyze', site.url('/chunked')], { ...LOOPBACK, PAGEGRADE_MAX_PAGE_BYTES: String(LIMIT) });
    expect(run.code, run.stderr).toBe(3);
    expect(run.stdout + run.stderr).toContain(REASON);
  });
});
