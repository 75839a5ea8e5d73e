// The shared corpus of real pages (../shared/corpus) as in-memory fetch results, for the corpus
// test and the engine benchmark. Fetch facts are synthesised: a plain 200 over https.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { FetchedPage, OriginFacts, UndecodedPage } from '../../src/fetch/types.ts';
import { decodeBody } from '../../src/fetch/decode-page.ts';

const CORPUS_DIR = resolve(import.meta.dirname, '../../../shared/corpus');

export interface CorpusPage {
  file: string;
  url: string;
  bytes: Buffer;
  html: string;
}

interface ManifestEntry {
  file: string;
  site: string | null;
  original_url: string | null;
}

export function loadCorpus(): CorpusPage[] {
  const manifest = JSON.parse(readFileSync(resolve(CORPUS_DIR, 'manifest.json'), 'utf8')) as ManifestEntry[];
  return manifest.map((entry) => {
    const bytes = readFileSync(resolve(CORPUS_DIR, entry.file));
    const url = entry.original_url ?? `https://${entry.site ?? 'corpus.example'}/`;
    return { file: entry.file, url, bytes, html: bytes.toString('utf8') };
  });
}

export function corpusFetchedPage(page: CorpusPage): FetchedPage {
  return {
    requestedUrl: page.url,
    finalUrl: page.url,
    redirects: [],
    statusCode: 200,
    xRobotsTag: [],
    headers: { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip' },
    contentType: 'text/html; charset=utf-8',
    mimeType: 'text/html',
    charset: 'utf-8',
    charsetSource: 'header',
    metaCharsetInFirst1024Bytes: false,
    contentEncoding: 'gzip',
    httpVersion: '2',
    transferredBytes: Math.round(page.bytes.length / 4),
    bodyBytes: page.bytes.length,
    // decoded as the analysis threads decode a fetched body: in pieces
    html: decodeBody(page.bytes, 'utf-8'),
    ttfbMs: 120,
    totalMs: 300,
  };
}

/** corpusFetchedPage before its body is decoded: the file's bytes, as fetching hands them on. */
export function corpusUndecodedPage(page: CorpusPage): UndecodedPage {
  const { html: _html, ...facts } = corpusFetchedPage(page);
  return { ...facts, body: page.bytes };
}

export function corpusOriginFacts(page: CorpusPage): OriginFacts {
  const origin = new URL(page.url).origin;
  const aux = (path: string, statusCode: number, body: string | null, contentType: string) => ({
    url: `${origin}${path}`,
    statusCode,
    finalUrl: `${origin}${path}`,
    redirected: false,
    contentType,
    body,
    error: null,
  });
  return {
    origin,
    robotsTxt: aux('/robots.txt', 200, 'User-agent: *\nDisallow: /admin/\nSitemap: ' + origin + '/sitemap.xml\n', 'text/plain'),
    notFoundProbe: aux('/pagegrade-404-probe', 404, null, 'text/html'),
    faviconIco: aux('/favicon.ico', 200, null, 'image/x-icon'),
    llmsTxt: aux('/llms.txt', 200, `# ${new URL(page.url).hostname}\n\n> The site in brief.\n\n## Pages\n\n- [Home](${origin}/): the front page\n`, 'text/plain; charset=utf-8'),
    sitemap: { ...aux('/sitemap.xml', 200, null, 'application/xml'), source: 'robots', validXml: true, urlCount: 10 },
    http2: true,
  };
}
