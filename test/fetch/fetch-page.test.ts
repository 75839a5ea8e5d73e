import type http from 'node:http';
import zlib from 'node:zlib';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FetchError } from '../../src/fetch/fetch-error.ts';
import { fetchPage } from '../../src/fetch/fetch-page.ts';
import { ZSTD_PAGE_HEX, ZSTD_PAGE_HTML } from './fixtures/zstd-frames.ts';
import { sendHtml, startServer, testOptions, type TestServer } from './support/test-server.ts';

const PAGE = '<!doctype html><html><head><title>Hello pagegrade</title></head><body><p>content</p></body></html>';

async function failure(promise: Promise<unknown>): Promise<FetchError> {
  const outcome = await promise.then(
    () => null,
    (err: unknown) => err,
  );
  expect(outcome).toBeInstanceOf(FetchError);
  return outcome as FetchError;
}

const routes: Record<string, (req: http.IncomingMessage, res: http.ServerResponse) => void> = {
  '/': (_req, res) => sendHtml(res, PAGE, { 'x-repeated': ['one', 'two'], server: 'test' }),
  '/hop1': (_req, res) => {
    res.writeHead(301, { location: '/dir/hop2' });
    res.end();
  },
  '/dir/hop2': (_req, res) => {
    res.writeHead(302, { location: 'hop3?x=1' }); // relative to /dir/
    res.end('moving on');
  },
  '/dir/hop3?x=1': (_req, res) => {
    res.writeHead(307, { location: '/' });
    res.end();
  },
  '/loop-a': (_req, res) => {
    res.writeHead(302, { location: '/loop-b' });
    res.end();
  },
  '/loop-b': (_req, res) => {
    res.writeHead(302, { location: '/loop-a' });
    res.end();
  },
  '/redirect-to-ftp': (_req, res) => {
    res.writeHead(301, { location: 'ftp://example.com/' });
    res.end();
  },
  '/gzip': (_req, res) => sendHtml(res, zlib.gzipSync(PAGE), { 'content-encoding': 'gzip' }),
  '/deflate': (_req, res) => sendHtml(res, zlib.deflateSync(PAGE), { 'content-encoding': 'deflate' }),
  '/br': (_req, res) => sendHtml(res, zlib.brotliCompressSync(PAGE), { 'content-encoding': 'br' }),
  '/zstd': (_req, res) => sendHtml(res, Buffer.from(ZSTD_PAGE_HEX, 'hex'), { 'content-encoding': 'zstd' }),
  '/corrupt-gzip': (_req, res) => sendHtml(res, 'this is not gzip', { 'content-encoding': 'gzip' }),
  '/gzip-bomb': (_req, res) => {
    const member = zlib.gzipSync(Buffer.alloc(16 * 1024 * 1024, 0x20));
    sendHtml(res, Buffer.concat(Array(8).fill(member)), { 'content-encoding': 'gzip' });
  },
  '/big': (_req, res) => sendHtml(res, Buffer.alloc(2 * 1024 * 1024, 0x20)),
  '/big-chunked': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    for (let i = 0; i < 32; i++) res.write(chunk);
    res.end();
  },
  '/trickle': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    const timer = setInterval(() => res.write(' '), 50);
    res.on('close', () => clearInterval(timer));
  },
  '/silent': () => {
    // never answers
  },
  '/pdf': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/pdf' });
    res.end('%PDF-1.7');
  },
  '/untyped-html': (_req, res) => {
    res.writeHead(200, {});
    res.end('  <!DOCTYPE html><title>untyped</title>');
  },
  '/untyped-binary': (_req, res) => {
    res.writeHead(200, {});
    res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  },
  '/not-found': (_req, res) => sendHtml(res, '<title>Not here</title>', {}, 404),
  '/server-error': (_req, res) => {
    res.writeHead(500, { 'content-type': 'text/plain' });
    res.end('boom');
  },
  '/xhtml': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/xhtml+xml' });
    res.end('<html xmlns="http://www.w3.org/1999/xhtml"><head><title>x</title></head></html>');
  },
  '/windows-1252-header': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=ISO-8859-1' });
    res.end(iconv.encode('<html><head><title>Café crème</title></head></html>', 'windows-1252'));
  },
  '/shift-jis-meta': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(iconv.encode('<html><head><meta charset="Shift_JIS"><title>日本語のページ</title></head></html>', 'shift_jis'));
  },
  '/gb2312-http-equiv': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    const html = '<html><head><meta http-equiv="Content-Type" content="text/html; charset=gb2312"><title>中文网页标题</title></head></html>';
    res.end(iconv.encode(html, 'gb2312'));
  },
  '/undeclared-legacy': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(iconv.encode('<html><head><title>Déjà vu</title></head></html>', 'windows-1252'));
  },
  '/bom-beats-header': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=windows-1252' });
    res.end(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('<title>naïve</title>')]));
  },
};

let server: TestServer;
beforeAll(async () => {
  server = await startServer((req, res) => {
    const route = routes[req.url ?? ''];
    if (route) route(req, res);
    else sendHtml(res, 'missing', {}, 404);
  });
  for (let i = 0; i < 12; i++) routes[`/chain-${i}`] = (_req, res) => {
    res.writeHead(301, { location: `/chain-${i + 1}` });
    res.end();
  };
  routes['/chain-12'] = (_req, res) => sendHtml(res, PAGE);
});
afterAll(() => server.close());

const url = (path: string) => `${server.origin}${path}`;

describe('fetchPage', () => {
  it('returns the page with its headers, status, size and version', async () => {
    const page = await fetchPage(url('/'), testOptions());
    expect({ ...page, html: page.html.toString() }).toMatchObject({
      requestedUrl: url('/'),
      finalUrl: url('/'),
      redirects: [],
      statusCode: 200,
      contentType: 'text/html; charset=utf-8',
      mimeType: 'text/html',
      charset: 'utf-8',
      charsetSource: 'header',
      metaCharsetInFirst1024Bytes: false,
      contentEncoding: null,
      httpVersion: '1.1',
      transferredBytes: Buffer.byteLength(PAGE),
      bodyBytes: Buffer.byteLength(PAGE),
      html: PAGE,
    });
    expect(page.headers['x-repeated']).toBe('one, two');
    expect(page.headers.server).toBe('test');
    expect(page.totalMs).toBeGreaterThanOrEqual(page.ttfbMs);
  });

  it('sends an identifiable user agent and accepts compressed bodies', async () => {
    let seen: http.IncomingHttpHeaders = {};
    routes['/echo'] = (req, res) => {
      seen = req.headers;
      sendHtml(res, PAGE);
    };
    await fetchPage(url('/echo'), testOptions({ userAgent: 'pagegrade-test/1.0' }));
    expect(seen['user-agent']).toBe('pagegrade-test/1.0');
    expect(seen['accept-encoding']).toBe('gzip, deflate, br, zstd');
  });

  describe('redirects', () => {
    it('follows a chain, recording every hop with absolute locations', async () => {
      const page = await fetchPage(url('/hop1'), testOptions());
      expect(page.requestedUrl).toBe(url('/hop1'));
      expect(page.finalUrl).toBe(url('/'));
      expect(page.redirects).toEqual([
        { url: url('/hop1'), statusCode: 301, location: url('/dir/hop2') },
        { url: url('/dir/hop2'), statusCode: 302, location: url('/dir/hop3?x=1') },
        { url: url('/dir/hop3?x=1'), statusCode: 307, location: url('/') },
      ]);
      expect(page.html.toString()).toBe(PAGE);
    });

    it('detects a loop', async () => {
      const error = await failure(fetchPage(url('/loop-a'), testOptions()));
      expect(error.code).toBe('redirect_loop');
      expect(error.reason).toBe(`Redirect loop: ${url('/loop-a')} -> ${url('/loop-b')} -> ${url('/loop-a')}`);
    });

    it('follows ten redirects but not eleven', async () => {
      const ten = await fetchPage(url('/chain-2'), testOptions());
      expect(ten.redirects).toHaveLength(10);
      const error = await failure(fetchPage(url('/chain-0'), testOptions()));
      expect([error.code, error.reason]).toEqual(['too_many_redirects', 'Too many redirects (more than 10).']);
    });

    it('refuses a redirect to a non-http scheme', async () => {
      const error = await failure(fetchPage(url('/redirect-to-ftp'), testOptions()));
      expect(error.code).toBe('bad_response');
      expect(error.reason).toContain('ftp://example.com/');
    });
  });

  describe('content encodings', () => {
    it.each(['gzip', 'deflate', 'br'])('decodes %s and records wire and decoded sizes', async (coding) => {
      const page = await fetchPage(url(`/${coding}`), testOptions());
      expect(page.html.toString()).toBe(PAGE);
      expect(page.contentEncoding).toBe(coding);
      expect(page.bodyBytes).toBe(Buffer.byteLength(PAGE));
      expect(page.transferredBytes).toBeLessThan(page.bodyBytes);
    });

    it('decodes zstd', async () => {
      const page = await fetchPage(url('/zstd'), testOptions());
      expect(page.html.toString()).toBe(ZSTD_PAGE_HTML);
      expect(page.contentEncoding).toBe('zstd');
      expect(page.transferredBytes).toBe(ZSTD_PAGE_HEX.length / 2);
    });

    it('fails a body that does not match its encoding', async () => {
      expect((await failure(fetchPage(url('/corrupt-gzip'), testOptions()))).code).toBe('bad_response');
    });

    it('stops a gzip bomb at the cap', async () => {
      const error = await failure(fetchPage(url('/gzip-bomb'), testOptions({ maxBytes: 1024 * 1024 })));
      expect([error.code, error.reason]).toEqual(['too_large', 'The page is larger than 1 MiB (PAGEGRADE_MAX_PAGE_BYTES).']);
    });
  });

  describe('limits', () => {
    it.each(['/big', '/big-chunked'])('fails a body over the cap (%s)', async (path) => {
      const error = await failure(fetchPage(url(path), testOptions({ maxBytes: 1024 * 1024 })));
      expect([error.code, error.reason]).toEqual(['too_large', 'The page is larger than 1 MiB (PAGEGRADE_MAX_PAGE_BYTES).']);
    });

    it('times out a server that trickles its body', async () => {
      const error = await failure(fetchPage(url('/trickle'), testOptions({ timeoutMs: 400 })));
      expect(error.code).toBe('timeout');
      expect(error.reason).toBe(`The server at ${new URL(server.origin).host} did not send the whole page within 400 ms.`);
    });

    it('times out a server that never answers', async () => {
      const error = await failure(fetchPage(url('/silent'), testOptions({ timeoutMs: 300 })));
      expect([error.code, error.reason]).toEqual(['timeout', `The server at ${new URL(server.origin).host} did not answer within 300 ms.`]);
    });

    it('counts redirects against the same deadline', async () => {
      routes['/slow-hop'] = (_req, res) => {
        setTimeout(() => {
          res.writeHead(302, { location: '/silent' });
          res.end();
        }, 150);
      };
      const error = await failure(fetchPage(url('/slow-hop'), testOptions({ timeoutMs: 300 })));
      expect(error.code).toBe('timeout');
    });
  });

  describe('content types', () => {
    it('refuses a successful non-HTML answer', async () => {
      const error = await failure(fetchPage(url('/pdf'), testOptions()));
      expect([error.code, error.reason]).toEqual(['not_html', 'The page is application/pdf, not HTML.']);
    });

    it('accepts XHTML', async () => {
      expect((await fetchPage(url('/xhtml'), testOptions())).mimeType).toBe('application/xhtml+xml');
    });

    it('sniffs a body without Content-Type', async () => {
      const page = await fetchPage(url('/untyped-html'), testOptions());
      expect(page.mimeType).toBeNull();
      expect(page.html.toString()).toContain('<title>untyped</title>');
      expect((await failure(fetchPage(url('/untyped-binary'), testOptions()))).code).toBe('not_html');
    });

    it('returns error statuses as pages, not failures', async () => {
      const notFound = await fetchPage(url('/not-found'), testOptions());
      expect([notFound.statusCode, notFound.html.toString()]).toEqual([404, '<title>Not here</title>']);
      const serverError = await fetchPage(url('/server-error'), testOptions());
      expect([serverError.statusCode, serverError.mimeType, serverError.html.toString()]).toEqual([500, 'text/plain', 'boom']);
    });
  });

  describe('charsets', () => {
    it('decodes windows-1252 declared (as ISO-8859-1) in the header', async () => {
      const page = await fetchPage(url('/windows-1252-header'), testOptions());
      expect([page.charset, page.charsetSource, page.metaCharsetInFirst1024Bytes]).toEqual(['windows-1252', 'header', false]);
      expect(page.html.toString()).toContain('<title>Café crème</title>');
    });

    it('decodes Shift_JIS declared by <meta charset>', async () => {
      const page = await fetchPage(url('/shift-jis-meta'), testOptions());
      expect([page.charset, page.charsetSource, page.metaCharsetInFirst1024Bytes]).toEqual(['shift_jis', 'meta', true]);
      expect(page.html.toString()).toContain('<title>日本語のページ</title>');
    });

    it('decodes GB2312 declared by http-equiv', async () => {
      const page = await fetchPage(url('/gb2312-http-equiv'), testOptions());
      expect([page.charset, page.charsetSource]).toEqual(['gbk', 'meta']);
      expect(page.html.toString()).toContain('<title>中文网页标题</title>');
    });

    it('falls back to windows-1252 for undeclared bytes that are not UTF-8', async () => {
      const page = await fetchPage(url('/undeclared-legacy'), testOptions());
      expect([page.charset, page.charsetSource]).toEqual(['windows-1252', 'default']);
      expect(page.html.toString()).toContain('<title>Déjà vu</title>');
    });

    it('lets a BOM win over the header', async () => {
      const page = await fetchPage(url('/bom-beats-header'), testOptions());
      expect([page.charset, page.charsetSource, page.html.toString()]).toEqual(['utf-8', 'bom', '<title>naïve</title>']);
    });
  });

  describe('failures', () => {
    it('rejects a URL that is not http(s)', async () => {
      expect((await failure(fetchPage('ftp://example.com/', testOptions()))).code).toBe('invalid_url');
      expect((await failure(fetchPage('not a url', testOptions()))).code).toBe('invalid_url');
    });

    it('reports a name that does not resolve', async () => {
      const error = await failure(fetchPage('http://no-such-host.invalid/', testOptions()));
      expect([error.code, error.reason]).toEqual(['dns', 'no-such-host.invalid could not be found (DNS).']);
    });

    it('reports a refused connection', async () => {
      const closed = await startServer(() => {});
      await closed.close();
      const error = await failure(fetchPage(`${closed.origin}/`, testOptions()));
      expect([error.code, error.reason]).toEqual(['refused', `The server at 127.0.0.1:${closed.port} refused the connection.`]);
    });

    it('reports an untrusted certificate as a TLS failure', async () => {
      const secure = await startServer((_req, res) => sendHtml(res, PAGE), { protocol: 'https' });
      try {
        const error = await failure(fetchPage(`${secure.origin}/`, testOptions()));
        expect(error.code).toBe('tls');
        expect(error.reason).toMatch(/^The secure connection to 127\.0\.0\.1:\d+ failed: .*certificate/);
      } finally {
        await secure.close();
      }
    });

    it('reports a connection closed before an answer', async () => {
      routes['/hang-up'] = (req) => req.socket.destroy();
      expect((await failure(fetchPage(url('/hang-up'), testOptions()))).code).toBe('network');
    });
  });
});
