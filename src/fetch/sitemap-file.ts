// Reading one sitemap file: the guarded auxiliary request, gunzip when the file is a gzip file (as
// sitemap.xml.gz usually is, without Content-Encoding), then the one parser (sitemap-xml.ts) on the
// parsing threads when the options name them. The page check's sitemap (sitemap.ts) and a crawl's
// seeds (crawl/sitemap-urls.ts) both read their files here.
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { auxRequest, type AuxContext } from './aux-request.ts';
import { parseSitemapBytes, type SitemapContent } from './sitemap-xml.ts';
import type { AuxResponse } from './types.ts';

const gunzip = promisify(zlib.gunzip);

export interface SitemapFile {
  /** The request's outcome; `body` is never kept (sitemaps can be megabytes). */
  response: AuxResponse;
  /** The status the server answered with, even when reading the body then failed. */
  answeredStatus: number | null;
  /**
   * Why there is no content: the request failed, it did not answer 200, or its body could not be read
   * (too large, not gzip); null when it was parsed.
   */
  failure: string | null;
  /** The parsed file (which may still say it is no sitemap), when it answered 200 and was read. */
  content: SitemapContent | null;
}

export async function readSitemapFile(url: string, context: AuxContext): Promise<SitemapFile> {
  const maxBytes = context.options.maxBytes;
  const result = await auxRequest(url, context, { maxBytes, onOverflow: 'fail' });
  const { response, answeredStatus } = result;
  const failed = (failure: string): SitemapFile => ({ response, answeredStatus, failure, content: null });
  if (response.error !== null) return failed(response.error);
  if (response.statusCode !== 200) return failed(`The sitemap answered HTTP ${response.statusCode}.`);
  let bytes = result.bytes ?? Buffer.alloc(0);
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      // zlib works on the libuv threads; the cap stops a gzip bomb.
      bytes = await gunzip(bytes, { maxOutputLength: maxBytes });
    } catch {
      return failed(`The sitemap is not valid gzip or larger than ${maxBytes} bytes.`);
    }
  }
  const pool = context.options.pool;
  const content = pool ? await pool.parseSitemap(bytes, result.charsetLabel) : parseSitemapBytes(bytes, result.charsetLabel);
  return { response, answeredStatus, failure: null, content };
}
