import { describe, expect, it } from 'vitest';
import { parseRobotsTxt } from '../../robots/robots-txt.ts';
import { makeAux, makeContext } from '../../../test/support/check-context.ts';
import { robotsTxtValidCheck } from './robots-txt-valid.ts';

const ROBOTS_URL = 'https://example.com/robots.txt';
const runWith = (body: string) =>
  robotsTxtValidCheck.run(makeContext({ origin: { robotsTxt: makeAux(ROBOTS_URL, { statusCode: 200, body }) }, robots: parseRobotsTxt(body) }));

describe('robots_txt_valid', () => {
  it('passes a valid file and counts what it holds', () => {
    expect(runWith('User-agent: *\nDisallow: /admin\n\nSitemap: https://example.com/sitemap.xml\n')).toEqual({
      passed: true,
      value: { url: ROBOTS_URL, groups: 1, rules: 1, sitemaps: 1, problems: 0 },
      errors: null,
    });
  });

  it('fails and lists the invalid lines', () => {
    expect(runWith('User-agent: *\nDisalow: /admin\n')).toMatchObject({
      passed: false,
      value: { problems: 1 },
      errors: { invalid_lines: [{ line: 2, text: 'Disalow: /admin', message: expect.stringContaining('unknown directive') }] },
    });
  });

  it('does not apply when there is no robots.txt or it could not be read', () => {
    const absent = robotsTxtValidCheck.run(makeContext({ origin: { robotsTxt: makeAux(ROBOTS_URL, { statusCode: 404 }) } }));
    expect(absent).toMatchObject({ passed: null, reason: expect.stringContaining('404') });
    const broken = robotsTxtValidCheck.run(makeContext({ origin: { robotsTxt: makeAux(ROBOTS_URL, { statusCode: 500 }) } }));
    expect(broken.passed).toBeNull();
  });
});
