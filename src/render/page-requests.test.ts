import { describe, expect, it } from 'vitest';
import { headersFor } from './page-requests.ts';

const HOST_HEADERS = { hosts: ['staging.example:8443'], headers: { cookie: 's=secret-value', authorization: 'Basic abc' } };

describe('headersFor', () => {
  it('puts the crawl\'s headers in place of the browser\'s own of those names on a request to a host', () => {
    const headers = headersFor(
      { url: 'https://staging.example:8443/app.js', headers: { Accept: '*/*', Cookie: 'jar=1', 'User-Agent': 'crawl' } },
      HOST_HEADERS,
    );
    expect(headers).toEqual([
      { name: 'Accept', value: '*/*' },
      { name: 'User-Agent', value: 'crawl' },
      { name: 'cookie', value: 's=secret-value' },
      { name: 'authorization', value: 'Basic abc' },
    ]);
  });

  it('leaves a request to another host (another port too) as it is', () => {
    for (const url of ['https://staging.example/app.js', 'https://cdn.example:8443/app.js', 'not a url']) {
      expect(headersFor({ url, headers: { Accept: '*/*', Cookie: 'jar=1' } }, HOST_HEADERS)).toBeUndefined();
    }
  });

  it('takes the crawl\'s headers off a request to another host that carries them, and only those', () => {
    const headers = headersFor(
      { url: 'https://elsewhere.example/landing', headers: { Accept: 'text/html', Cookie: 's=secret-value', Authorization: 'Bearer own' } },
      HOST_HEADERS,
    );
    expect(headers).toEqual([
      { name: 'Accept', value: 'text/html' },
      { name: 'Authorization', value: 'Bearer own' },
    ]);
  });
});
