// HTTP/2 needs a certificate the fetcher trusts, and Node 20 only reads extra CAs at start-up, so
// these fetches run in a child process started with NODE_EXTRA_CA_CERTS.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { FetchedPage } from '../../src/fetch/types.ts';
import { TLS_CERT_PATH, sendHtml, startServer, type ServerOptions } from './support/test-server.ts';

const CHILD_SCRIPT = new URL('./fixtures/fetch-in-child.ts', import.meta.url).pathname;
const run = promisify(execFile);

async function fetchWithTrustedCertificate(protocol: ServerOptions['protocol']): Promise<FetchedPage> {
  const server = await startServer((_req, res) => sendHtml(res, '<title>secure</title>'), { protocol });
  try {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', CHILD_SCRIPT, `${server.origin}/`], {
      env: { ...process.env, NODE_EXTRA_CA_CERTS: TLS_CERT_PATH },
    });
    const result = JSON.parse(stdout) as { ok: true; page: FetchedPage } | { ok: false; error: string };
    if (!result.ok) throw new Error(result.error);
    return result.page;
  } finally {
    await server.close();
  }
}

describe('HTTP version', () => {
  it('is "2" when the origin negotiates HTTP/2', async () => {
    const page = await fetchWithTrustedCertificate('h2');
    expect([page.httpVersion, page.statusCode, page.html]).toEqual(['2', 200, '<title>secure</title>']);
  });

  it('is "1.1" for an https origin without HTTP/2', async () => {
    const page = await fetchWithTrustedCertificate('https');
    expect([page.httpVersion, page.html]).toEqual(['1.1', '<title>secure</title>']);
  });
});
