// A browser for app.inject: keeps cookies (honouring their paths and deletion), remembers the CSRF
// token of the last page with a form, and sends forms as browsers do. One client is one browser.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

export type Response = LightMyRequestResponse;

interface StoredCookie {
  value: string;
  path: string;
}

/** As browsers do, a cookie is one name at one path: the same name at another path is another cookie. */
function jarKey(name: string, path: string): string {
  return `${name}\n${path}`;
}

/** RFC 6265 5.1.4: the cookie's path, or below it ("/reports/" covers "/reports/12.pdf", "/reports/12" does not). */
function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true;
  return requestPath.startsWith(cookiePath) && (cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/');
}

const CSRF_FIELD = /name="_csrf" value="([^"]+)"/;

export class WebClient {
  private readonly jar = new Map<string, StoredCookie & { name: string }>();
  csrf: string | undefined;

  /** The cookies kept, by name (a name kept at several paths: the first one set). */
  get cookies(): ReadonlyMap<string, StoredCookie> {
    const byName = new Map<string, StoredCookie>();
    for (const { name, value, path } of this.jar.values()) if (!byName.has(name)) byName.set(name, { value, path });
    return byName;
  }

  constructor(
    private readonly app: FastifyInstance,
    private readonly remoteAddress = '127.0.0.1',
  ) {}

  private cookieHeader(url: string): string {
    const path = url.split('?')[0];
    return [...this.jar.values()]
      .filter((cookie) => pathMatches(path, cookie.path))
      .map((cookie) => `${cookie.name}=${cookie.value}`)
      .join('; ');
  }

  private remember(response: Response): Response {
    for (const cookie of response.cookies) {
      const expired = cookie.maxAge === 0 || (cookie.expires !== undefined && cookie.expires.getTime() <= Date.now());
      const path = cookie.path ?? '/';
      if (expired || cookie.value === '') this.jar.delete(jarKey(cookie.name, path));
      else this.jar.set(jarKey(cookie.name, path), { name: cookie.name, value: cookie.value, path });
    }
    const token = CSRF_FIELD.exec(response.body)?.[1];
    if (token) this.csrf = token;
    return response;
  }

  async get(url: string, headers: Record<string, string> = {}): Promise<Response> {
    const response = await this.app.inject({
      method: 'GET',
      url,
      remoteAddress: this.remoteAddress,
      headers: { accept: 'text/html', cookie: this.cookieHeader(url), ...headers },
    });
    return this.remember(response);
  }

  /** Posts a form; the CSRF token of the last page is added unless `csrf: false`. */
  async post(url: string, fields: Record<string, string | number> = {}, options: { csrf?: boolean } = {}): Promise<Response> {
    const form = new URLSearchParams(Object.entries(fields).map(([key, value]) => [key, String(value)]));
    if (options.csrf !== false && this.csrf !== undefined && !form.has('_csrf')) form.set('_csrf', this.csrf);
    const response = await this.app.inject({
      method: 'POST',
      url,
      remoteAddress: this.remoteAddress,
      headers: {
        accept: 'text/html',
        'content-type': 'application/x-www-form-urlencoded',
        cookie: this.cookieHeader(url),
      },
      payload: form.toString(),
    });
    return this.remember(response);
  }

  /** Signs in through the form, as a person would. */
  async signIn(apiKey: string): Promise<void> {
    await this.get('/sign-in');
    const response = await this.post('/sign-in', { api_key: apiKey });
    expect(response.statusCode, response.body).toBe(303);
    expect(response.headers.location).toBe('/dashboard/reports');
  }
}

/** The response's Set-Cookie line for a cookie, to check its attributes as sent. */
export function setCookieLine(response: Response, name: string): string | undefined {
  const header = response.headers['set-cookie'];
  const lines = header === undefined ? [] : Array.isArray(header) ? header : [String(header)];
  return lines.find((line) => line.startsWith(`${name}=`));
}

/** Report ids linked from a page, in page order, without repeats. */
export function linkedReportIds(body: string): number[] {
  return [...new Set([...body.matchAll(/href="\/reports\/(\d+)"/g)].map((match) => Number(match[1])))];
}

/** Inline script, inline style attributes and event-handler attributes: none may appear. */
export function expectNoInlineCode(body: string): void {
  expect(body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/i);
  expect(body).not.toMatch(/<[a-z][^>]*\sstyle=/i);
  expect(body).not.toMatch(/<[a-z][^>]*\son[a-z]+=/i);
  expect(body).not.toMatch(/<style[\s>]/i);
}

/** Every id on a page names one element (labels, skip link and fragment links depend on it). */
export function expectUniqueIds(body: string): void {
  const ids = [...body.matchAll(/\sid="([^"]+)"/g)].map((match) => match[1]);
  expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
}

/** Each label's for= names an element on the page. */
export function expectLabelledInputs(body: string): void {
  const ids = new Set([...body.matchAll(/\sid="([^"]+)"/g)].map((match) => match[1]));
  for (const match of body.matchAll(/<label for="([^"]+)"/g)) expect(ids.has(match[1]), `label for ${match[1]}`).toBe(true);
  for (const match of body.matchAll(/<(input|select|textarea)\b(?![^>]*type="hidden")[^>]*\bid="([^"]+)"/g)) {
    expect(body, `a label for #${match[2]}`).toContain(`<label for="${match[2]}"`);
  }
}
