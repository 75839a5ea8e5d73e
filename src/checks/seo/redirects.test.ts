import { describe, expect, it } from 'vitest';
import type { RedirectHop } from '../../fetch/types.ts';
import { makeContext } from '../../../test/support/check-context.ts';
import { redirectsCheck } from './redirects.ts';

const hop = (url: string, location: string, statusCode = 301): RedirectHop => ({ url, statusCode, location });
const run = (redirects: RedirectHop[], finalUrl = 'https://example.com/') => redirectsCheck.run(makeContext({ page: { redirects, finalUrl } }));

describe('redirects', () => {
  it('passes no redirect and a single one', () => {
    expect(run([])).toEqual({ passed: true, value: { count: 0, chain: [], final_url: 'https://example.com/' }, errors: null });
    expect(run([hop('http://example.com/', 'https://example.com/')])).toMatchObject({
      passed: true,
      value: { count: 1, chain: [{ url: 'http://example.com/', status_code: 301, location: 'https://example.com/' }] },
    });
  });

  it('fails a chain of two hops, listing it', () => {
    const chain = [hop('http://example.com/', 'https://example.com/'), hop('https://example.com/', 'https://www.example.com/', 302)];
    expect(run(chain, 'https://www.example.com/')).toMatchObject({
      passed: false,
      value: { count: 2 },
      errors: { too_many: ['http://example.com/', 'https://example.com/', 'https://www.example.com/'] },
    });
  });

  it('fails a loop', () => {
    const loop = [hop('https://example.com/a', 'https://example.com/b'), hop('https://example.com/b', 'https://example.com/a')];
    expect(run(loop, 'https://example.com/a')).toMatchObject({ passed: false, errors: { loop: ['https://example.com/a'] } });
  });
});
