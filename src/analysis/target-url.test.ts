import { describe, expect, it } from 'vitest';
import { parseTargetUrl } from './target-url.ts';

describe('parseTargetUrl', () => {
  it('normalises scheme, host, default port, fragment and IDN', () => {
    expect(parseTargetUrl(' HTTPS://Example.COM:443/Pricing?a=1#top ')).toEqual({
      ok: true,
      url: 'https://example.com/Pricing?a=1',
      project: 'example.com',
    });
    expect(parseTargetUrl('http://bücher.example/')).toMatchObject({ url: 'http://xn--bcher-kva.example/' });
  });

  it('keeps a non-default port in the project', () => {
    expect(parseTargetUrl('http://127.0.0.1:8080/a')).toMatchObject({ project: '127.0.0.1:8080' });
  });

  it.each([
    ['', 'required'],
    ['example.com', 'absolute URL'],
    ['ftp://example.com/', '"ftp" is not supported'],
    ['javascript:alert(1)', '"javascript" is not supported'],
    ['https://user:pw@example.com/', 'user name or password'],
    [`https://example.com/${'a'.repeat(2100)}`, 'at most 2048'],
  ])('rejects %j with a message about %s', (input, fragment) => {
    const result = parseTargetUrl(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toContain(fragment);
  });
});
