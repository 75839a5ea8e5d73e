import { describe, expect, it } from 'vitest';
import { makeAux, makeContext } from '../../../test/support/check-context.ts';
import { parseRobotsTxt } from '../../robots/robots-txt.ts';
import { robotsTxtState } from './robots-access.ts';

const ROBOTS_URL = 'https://example.com/robots.txt';

describe('robotsTxtState', () => {
  it('hands on the parse the analysis made of a 200', () => {
    const robots = parseRobotsTxt('User-agent: *\nDisallow: /x\n');
    const context = makeContext({ origin: { robotsTxt: makeAux(ROBOTS_URL, { statusCode: 200, body: 'ignored' }) }, robots });
    expect(robotsTxtState(context)).toEqual({ kind: 'parsed', robots, statusCode: 200 });
  });

  it('parses another 2xx once, however many checks ask', () => {
    const context = makeContext({ origin: { robotsTxt: makeAux(ROBOTS_URL, { statusCode: 203, body: 'User-agent: *\nDisallow: /x\n' }) } });
    const first = robotsTxtState(context);
    const second = robotsTxtState(context);
    expect(first).toMatchObject({ kind: 'parsed', statusCode: 203, robots: { groups: [{ userAgents: ['*'] }] } });
    expect(first.kind === 'parsed' && second.kind === 'parsed' && first.robots === second.robots).toBe(true);
  });
});
