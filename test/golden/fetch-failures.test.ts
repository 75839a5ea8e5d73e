// Responses the pipeline cannot or should not score as a page: too large, too slow and not HTML
// stop the analysis with a FetchError; an HTML error page is analysed but never "good".
import type { IncomingMessage, ServerResponse } from 'node:http';
import zlib from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FetchError, type FetchErrorCode } from '../../src/fetch/fetch-error.ts';
import { clearOriginFactsCache } from '../../src/fetch/origin-facts.ts';
import { analyzer, goldenPage, respond, startGoldenSite, wellKeptSite, type GoldenSite, type Handler } from './support/golden-site.ts';

const sites: GoldenSite[] = [];

async function site(routes: Record<string, Handler>): Promise<GoldenSite> {
  const started = await startGoldenSite(routes);
  sites.push(started);
  return started;
}

beforeEach(() => clearOriginFactsCache());
afterEach(async () => {
  await Promise.all(sites.splice(0).map((started) => started.close()));
});

async function failureOf(analysis: Promise<unknown>): Promise<FetchError> {
  const failure = await analysis.then(
    () => null,
    (error: unknown) => error,
  );
  expect(failure).toBeInstanceOf(FetchError);
  return failure as FetchError;
}

async function expectFetchError(analysis: Promise<unknown>, code: FetchErrorCode): Promise<void> {
  expect((await failureOf(analysis)).code).toBe(code);
}

const MAX_BYTES = 100_000;
/** A valid page of about 200 kB: twice the cap. */
const HUGE_PAGE = `<!DOCTYPE html><title>Huge page</title><body>${'<p>coffee beans</p>'.repeat(10_000)}</body>`;

describe('pages over the size cap', () => {
  const analyze = analyzer({ maxBytes: MAX_BYTES });

  it('fails with too_large when Content-Length announces a huge body', async () => {
    const started = await site({ '/': respond(HUGE_PAGE, 'text/html') });
    await expectFetchError(analyze(started.url('/')), 'too_large');
  });

  it('fails with too_large when a chunked body grows past the cap', async () => {
    const started = await site({
      '/': (_request, response) => {
        response.writeHead(200, { 'content-type': 'text/html' });
        for (let i = 0; i < 20; i++) response.write(HUGE_PAGE.slice(i * 10_000, (i + 1) * 10_000));
        response.end(HUGE_PAGE.slice(200_000));
      },
    });
    await expectFetchError(analyze(started.url('/')), 'too_large');
  });

  it('fails with too_large when a small gzip body decompresses past the cap', async () => {
    const started = await site({ '/': respond(HUGE_PAGE, 'text/html', { coding: 'gzip' }) });
    expect(zlib.gzipSync(HUGE_PAGE).length).toBeLessThan(MAX_BYTES);
    await expectFetchError(analyze(started.url('/')), 'too_large');
  });
});

describe('a server slower than the deadline', () => {
  const analyze = analyzer({ timeoutMs: 1000 });

  /** Sends the headers and the start of a page, then one byte every 100 ms for 5 seconds. */
  function trickle(_request: IncomingMessage, response: ServerResponse): void {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.write('<!DOCTYPE html><title>Slow</title><body>');
    let sent = 0;
    const timer = setInterval(() => {
      if (++sent > 50) {
        clearInterval(timer);
        response.end('</body>');
      } else {
        response.write('.');
      }
    }, 100);
    response.on('close', () => clearInterval(timer));
  }

  it('fails with timeout while the body trickles in', async () => {
    const started = await site({ '/': trickle });
    const failure = await failureOf(analyze(started.url('/')));

    expect(failure.code).toBe('timeout');
    expect(failure.reason).toContain('1000 ms');
  });

  it('fails with timeout when the headers never come', async () => {
    const started = await site({
      '/': (_request, response) => {
        const timer = setTimeout(() => response.end(), 5000);
        response.on('close', () => clearTimeout(timer));
      },
    });
    await expectFetchError(analyze(started.url('/')), 'timeout');
  });
});

describe('responses that are not HTML', () => {
  const analyze = analyzer();

  it('fails with not_html for application/pdf', async () => {
    const started = await site({ '/report.pdf': respond(Buffer.from('%PDF-1.7\n%âãÏÓ\n'), 'application/pdf') });
    const failure = await failureOf(analyze(started.url('/report.pdf')));

    expect(failure.code).toBe('not_html');
    expect(failure.reason).toContain('application/pdf');
  });

  it('fails with not_html for JSON', async () => {
    const started = await site({ '/api': respond('{"coffee": true}', 'application/json') });
    await expectFetchError(analyze(started.url('/api')), 'not_html');
  });
});

describe('HTML error pages', () => {
  const analyze = analyzer();

  it.each([404, 500])('analyses the golden "good" page sent with %i, fails http_status and is graded bad', async (status) => {
    const path = '/guides/mountain-coffee';
    const started = await site(wellKeptSite(path, goldenPage('good'), { coding: 'gzip', status }));
    const analysis = await analyze(started.url(path));

    expect(analysis.page.status_code).toBe(status);
    expect(analysis.results.http_status.passed).toBe(false);
    expect(analysis.results.http_status.errors).toEqual({ status: [status] });
    expect(analysis.results.title.passed).toBe(true);
    // As the golden "good" page (209 of 219 points) minus http_status (high, 10):
    // score = round(100 * 199 / 219) = round(90.87) = 91, good by score; an error status makes it bad.
    expect(analysis.score).toBe(91);
    expect(analysis.result).toBe('bad');
  });
});
