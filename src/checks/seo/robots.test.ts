import { describe, expect, it } from 'vitest';
import type { AuxResponse } from '../../fetch/types.ts';
import { parseRobotsTxt } from '../../robots/robots-txt.ts';
import { makeAux, makeContext } from '../../../test/support/check-context.ts';
import { robotsCheck } from './robots.ts';

const ROBOTS_URL = 'https://example.com/robots.txt';
const run = (robotsTxt: Partial<AuxResponse>, finalUrl = 'https://example.com/page') => {
  const body = robotsTxt.body ?? null;
  const answered200 = robotsTxt.statusCode === 200 && body !== null;
  return robotsCheck.run(
    makeContext({
      page: { finalUrl },
      origin: { robotsTxt: makeAux(ROBOTS_URL, robotsTxt) },
      robots: answered200 ? parseRobotsTxt(body) : null,
    }),
  );
};

describe('robots', () => {
  it('passes when robots.txt allows the page, naming the deciding group and rule', () => {
    const outcome = run({ statusCode: 200, body: 'User-agent: *\nDisallow: /admin\nAllow: /page\n' });
    expect(outcome).toMatchObject({
      passed: true,
      value: { url: 'https://example.com/page', user_agent: 'googlebot', group: '*', rule: { type: 'allow', pattern: '/page', line: 3 } },
    });
  });

  it('fails when the Googlebot group disallows the page, even if * allows it', () => {
    const outcome = run({ statusCode: 200, body: 'User-agent: *\nAllow: /\n\nUser-agent: Googlebot\nDisallow: /page\n' });
    expect(outcome).toMatchObject({
      passed: false,
      value: { group: 'googlebot', rule: { type: 'disallow', pattern: '/page', line: 5 } },
      errors: { disallowed: [{ group: 'googlebot', pattern: '/page', line: 5 }] },
    });
  });

  it('allows everything when robots.txt answers 4xx', () => {
    expect(run({ statusCode: 404 })).toMatchObject({ passed: true, value: { status_code: 404, rule: null } });
    expect(run({ statusCode: 403 }).passed).toBe(true);
  });

  it('cannot tell when robots.txt answers 5xx or 429, or cannot be fetched', () => {
    expect(run({ statusCode: 503 })).toMatchObject({ passed: null, reason: expect.stringContaining('503') });
    expect(run({ statusCode: 429 }).passed).toBeNull();
    expect(run({ statusCode: null, error: 'connection refused' })).toMatchObject({ passed: null, reason: expect.stringContaining('connection refused') });
  });
});
