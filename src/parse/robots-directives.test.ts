import { describe, expect, it } from 'vitest';
import { robotsDirectives, xRobotsTagDirectives } from './robots-directives.ts';

describe('robotsDirectives', () => {
  it('splits on commas, trimmed and lower-case, keeping the commas of a date', () => {
    expect(robotsDirectives(' NoIndex, follow,, unavailable_after: Wed, 21 Oct 2015 07:28:00 GMT')).toEqual([
      'noindex',
      'follow',
      'unavailable_after: wed, 21 oct 2015 07:28:00 gmt',
    ]);
    expect(robotsDirectives('')).toEqual([]);
  });
});

describe('xRobotsTagDirectives', () => {
  it('scopes a directive and those after it on the line to the crawler named before a colon', () => {
    expect(xRobotsTagDirectives('noarchive, otherbot: noindex, nofollow')).toEqual([
      { agent: null, directive: 'noarchive' },
      { agent: 'otherbot', directive: 'noindex' },
      { agent: 'otherbot', directive: 'nofollow' },
    ]);
  });

  it('does not take a valued directive for a crawler name', () => {
    expect(xRobotsTagDirectives('max-snippet: 20, googlebot: noindex')).toEqual([
      { agent: null, directive: 'max-snippet: 20' },
      { agent: 'googlebot', directive: 'noindex' },
    ]);
  });
});
