import { describe, expect, it } from 'vitest';
import { parseCrawlHeaders, sendableHeaders } from './crawl-headers.ts';
import { crawlFetchOptions, crawlSecrets, parseUserAgentPreset, sealHeaders } from './crawl-requests.ts';
import { DEFAULT_USER_AGENT, type FetchOptions } from '../fetch/options.ts';

const refusal = (input: Parameters<typeof parseCrawlHeaders>[0]) => {
  const parsed = parseCrawlHeaders(input);
  return parsed.ok ? null : parsed.message;
};

describe('a crawl\'s request headers', () => {
  it('are Name: value lines or an object, names as given, in order', () => {
    expect(parseCrawlHeaders('Cookie: session=abc; theme=dark\r\n\nAuthorization:  Basic dXNlcjpwdw== \nX-Env:staging')).toEqual({
      ok: true,
      names: ['Cookie', 'Authorization', 'X-Env'],
      headers: { Cookie: 'session=abc; theme=dark', Authorization: 'Basic dXNlcjpwdw==', 'X-Env': 'staging' },
    });
    // A value may hold colons.
    expect(parseCrawlHeaders({ 'X-Forwarded-Proto': 'https', Referer: 'https://example.com/a:b' })).toEqual({
      ok: true,
      names: ['X-Forwarded-Proto', 'Referer'],
      headers: { 'X-Forwarded-Proto': 'https', Referer: 'https://example.com/a:b' },
    });
    expect(parseCrawlHeaders(undefined)).toEqual({ ok: true, names: [], headers: {} });
    expect(parseCrawlHeaders('')).toEqual({ ok: true, names: [], headers: {} });
    expect(parseCrawlHeaders(['A: 1', 'B: 2'])).toMatchObject({ ok: true, names: ['A', 'B'] });
  });

  it('refuse more than 10, a line without a colon, empty or invalid names and values, and repeats', () => {
    const eleven = Array.from({ length: 11 }, (_, index) => `X-H${index}: v`).join('\n');
    expect(refusal(eleven)).toBe('The headers may have at most 10 headers; 11 were given.');
    expect(refusal(eleven.split('\n').slice(0, 10).join('\n'))).toBeNull();
    expect(refusal('Cookie: a=b\nsecret-token-without-colon')).toBe('Line 2 of the headers has no colon: write each header as Name: value.');
    expect(refusal(': value')).toBe('Each of the headers needs a name before its colon.');
    expect(refusal('Bad Name: v')).toMatch(/^The header name "Bad Name" is not a valid HTTP field name/);
    expect(refusal({ 'X(y)': 'v' })).toMatch(/^The header name "X\(y\)" is not a valid/);
    expect(refusal(`${'X'.repeat(257)}: v`)).toBe('A header name may have at most 256 characters; one has 257.');
    expect(refusal('X-Empty:   ')).toBe('The header X-Empty has an empty value.');
    expect(refusal({ 'X-Long': 'v'.repeat(4097) })).toBe('The value of the header X-Long may have at most 4096 characters; it has 4097.');
    expect(refusal({ 'X-Long': 'v'.repeat(4096) })).toBeNull();
    for (const value of ['a\r\nInjected: 1', 'a\nb', 'a\0b', 'a\rb']) expect(refusal({ 'X-V': value })).toBe('The value of the header X-V must not contain CR, LF or NUL.');
    expect(refusal({ 'X-V': 'a\u0001b' })).toMatch(/must not contain control characters/);
    expect(refusal({ 'X-V': 'snow \u2603' })).toMatch(/nor characters beyond Latin-1/);
    expect(refusal({ 'X-V': 'tab\tand caf\u00e9' })).toBeNull();
    expect(refusal({ 'X-V': 5 } as never)).toBe('The value of the header X-V must be a string.');
    expect(refusal('Cookie: a\ncookie: b')).toBe('The header cookie is given more than once (names are case-insensitive).');
  });

  it('refuse the connection\'s, framing and hop-by-hop headers, User-Agent and Accept-Encoding', () => {
    for (const name of ['Host', 'Content-Length', 'Connection', 'Transfer-Encoding', 'Keep-Alive', 'Proxy-Connection', 'TE', 'Trailer', 'Upgrade', 'Expect']) {
      expect(refusal(`${name}: x`), name).toMatch(new RegExp(`^The header ${name} cannot be set: it (is|frames)`));
      expect(refusal(`${name.toLowerCase()}: x`), name).not.toBeNull();
    }
    expect(refusal('User-Agent: x')).toBe('The header User-Agent cannot be set: choose it with user_agent.');
    expect(refusal('accept-encoding: br')).toBe('The header accept-encoding cannot be set: the crawler negotiates compression itself.');
    expect(refusal('Accept: text/html')).toBeNull();
  });

  it('never quote a value in a refusal', () => {
    for (const input of ['Cookie: s3cr3t\nCookie: s3cr3t', 'Bad Name: s3cr3t', 's3cr3t', { Host: 's3cr3t' }, { 'X-V': 's3cr3t\n' }]) {
      expect(refusal(input)).not.toContain('s3cr3t');
    }
  });

  it('are sent with lower-case names', () => {
    expect(sendableHeaders({ Cookie: 'a=b', 'X-Env': 'Staging' })).toEqual({ cookie: 'a=b', 'x-env': 'Staging' });
  });
});

describe('a crawl\'s requests', () => {
  const base: FetchOptions = { timeoutMs: 1000, maxBytes: 1000, userAgent: DEFAULT_USER_AGENT, allowPrivate: true };
  const secrets = crawlSecrets('a-test-key-of-enough-length-0123456789');

  it('carry the preset\'s User-Agent, and the opened headers for the crawled host only', () => {
    const sealed = sealHeaders(secrets, { Cookie: 'session=abc' });
    expect(sealed).not.toContain('session');
    const opened = crawlFetchOptions({ project: 'example.com:8080', user_agent: 'googlebot_smartphone', headers_sealed: sealed }, base, secrets);
    expect(opened.ok && opened.options.userAgent).toMatch(/Googlebot\/2\.1/);
    expect(opened.ok && opened.options.hostHeaders).toEqual({ hosts: ['example.com:8080'], headers: { cookie: 'session=abc' } });
    const plain = crawlFetchOptions({ project: 'example.com', user_agent: 'default', headers_sealed: null }, base, secrets);
    expect(plain).toEqual({ ok: true, options: { ...base } });
  });

  it('say so when the headers cannot be opened, rather than crawl without them', () => {
    const sealed = sealHeaders(secrets, { Cookie: 'session=abc' });
    const other = crawlSecrets('another-key-of-enough-length-9876543210');
    const opened = crawlFetchOptions({ project: 'example.com', user_agent: 'default', headers_sealed: sealed }, base, other);
    expect(opened).toMatchObject({ ok: false, error: expect.stringMatching(/^The crawl's request headers cannot be read: The stored secret cannot be decrypted/) });
    expect(crawlFetchOptions({ project: 'example.com', user_agent: 'default', headers_sealed: sealed }, base)).toMatchObject({ ok: false });
  });

  it('take one of the user agent presets', () => {
    expect(parseUserAgentPreset(undefined)).toEqual({ ok: true, value: 'default' });
    expect(parseUserAgentPreset('mobile')).toEqual({ ok: true, value: 'mobile' });
    expect(parseUserAgentPreset('Googlebot')).toEqual({
      ok: false,
      message: 'The user_agent must be one of: default, desktop, mobile, googlebot_smartphone, googlebot_desktop.',
    });
  });
});
