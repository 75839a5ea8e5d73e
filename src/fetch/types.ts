// Plain data produced by the fetch stage. Checks read these; nothing here does I/O.
import type { PageText } from './page-text.ts';

export interface RedirectHop {
  /** The URL that answered with a redirect. */
  url: string;
  statusCode: number;
  /** The absolute URL it pointed to (resolved against `url`). */
  location: string;
}

export type CharsetSource = 'header' | 'bom' | 'meta' | 'default';

export interface FetchedPage {
  /** The URL as requested (already normalised). */
  requestedUrl: string;
  /** The URL of the response whose body was read. */
  finalUrl: string;
  redirects: RedirectHop[];
  statusCode: number;
  /** Response headers of the final response, names lower-case, repeated headers joined with ", ". */
  headers: Record<string, string>;
  /**
   * Each X-Robots-Tag header line as sent. Kept apart because a "googlebot:" prefix scopes only its
   * own line, which joining repeated headers with ", " would blur.
   */
  xRobotsTag: string[];
  /** Raw Content-Type header, or null. */
  contentType: string | null;
  /** The media type alone, lower-case ("text/html"), or null. */
  mimeType: string | null;
  /** The WHATWG encoding name used to decode the body ("utf-8", "shift_jis", "windows-1252"...). */
  charset: string;
  /** Where `charset` came from; 'default' means nothing declared one (a guess). */
  charsetSource: CharsetSource;
  /** A meta charset / http-equiv declaration found by the prescan of the first 1024 bytes. */
  metaCharsetInFirst1024Bytes: boolean;
  /** Content-Encoding as sent by the server ("gzip", "br", "zstd", "deflate"), or null. */
  contentEncoding: string | null;
  /** "1.0" | "1.1" | "2" | "3" */
  httpVersion: string;
  /** Bytes received on the wire for the final body (compressed size). */
  transferredBytes: number;
  /** Bytes of the decoded (decompressed) body. */
  bodyBytes: number;
  /** The body decoded to text (in pieces: see PageText). */
  html: PageText;
  /** Milliseconds from the first request until the first byte of the final response's body/headers. */
  ttfbMs: number;
  /** Milliseconds for the whole document, redirects included. */
  totalMs: number;
}

/** A fetched page whose body is still the bytes received (decompressed); decodePage() makes its text. */
export type UndecodedPage = Omit<FetchedPage, 'html'> & { body: Uint8Array };

/** Outcome of one small auxiliary request made for the checks (robots.txt, 404 probe, ...). */
export interface AuxResponse {
  url: string;
  /** null when the request failed (see `error`). */
  statusCode: number | null;
  /** Final URL after redirects (same as `url` when none). */
  finalUrl: string;
  redirected: boolean;
  contentType: string | null;
  /** Decoded body text when it was read (robots.txt, sitemap); null otherwise. */
  body: string | null;
  /** Why the request failed ("timeout", "connection refused", ...), when statusCode is null. */
  error: string | null;
}

/** What the checks need from the page's origin, gathered once per report (cached per origin briefly). */
export interface OriginFacts {
  origin: string;
  robotsTxt: AuxResponse;
  /** GET of a random path on the same origin, redirects followed and recorded. */
  notFoundProbe: AuxResponse;
  /** GET /favicon.ico (only consulted when the page has no link rel=icon). */
  faviconIco: AuxResponse;
  /** GET /llms.txt, its body decoded when it answered 2xx (cut at the same size as robots.txt). */
  llmsTxt: AuxResponse;
  /**
   * The first sitemap found: robots.txt Sitemap: lines first, then /sitemap.xml. When no candidate
   * answered at all, the failed attempt (statusCode null, error set); null when candidates answered
   * but none with 200. A 200 whose body could not be read also has statusCode null and an error.
   */
  sitemap: (AuxResponse & { source: 'robots' | 'default'; validXml: boolean; urlCount: number }) | null;
  /** Whether the origin negotiates HTTP/2 over TLS ALPN; null for plain http or when it could not be tested. */
  http2: boolean | null;
}
