import { describe, expect, it } from 'vitest';
import type { AuxResponse } from '../../fetch/types.ts';
import type { LinkTag } from '../../parse/page-snapshot.ts';
import { makeAux, makeContext } from '../../../test/support/check-context.ts';
import { faviconCheck } from './favicon.ts';

const link = (rel: string[], href: string | null, inHead = true): LinkTag => ({ rel, href, hreflang: null, type: null, media: null, as: null, inHead });
const ICO = 'https://example.com/favicon.ico';
const run = (linkTags: LinkTag[], ico: Partial<AuxResponse> = {}) =>
  faviconCheck.run(makeContext({ snapshot: { linkTags }, origin: { faviconIco: makeAux(ICO, ico) } }));

describe('favicon', () => {
  it('passes a link rel=icon in the head, also "shortcut icon"', () => {
    expect(run([link(['icon'], '/favicon.svg')])).toEqual({ passed: true, value: { source: 'link', href: '/favicon.svg' }, errors: null });
    expect(run([link(['shortcut', 'icon'], '/favicon.ico')]).passed).toBe(true);
  });

  it('does not count apple-touch-icon alone, an empty href or a link in the body', () => {
    expect(run([link(['apple-touch-icon'], '/apple.png'), link(['icon'], ' '), link(['icon'], '/f.png', false)]).passed).toBe(false);
  });

  it('passes /favicon.ico answering 200 with an image type', () => {
    expect(run([], { statusCode: 200, contentType: 'image/x-icon' })).toMatchObject({ passed: true, value: { source: '/favicon.ico', content_type: 'image/x-icon' } });
    expect(run([], { statusCode: 200, contentType: 'application/octet-stream' }).passed).toBe(true);
  });

  it('fails /favicon.ico that is missing or not an image', () => {
    expect(run([], { statusCode: 404 })).toMatchObject({ passed: false, errors: { missing: ['/favicon.ico answered 404'] } });
    expect(run([], { statusCode: 200, contentType: 'text/html; charset=utf-8' })).toMatchObject({
      passed: false,
      errors: { missing: ['/favicon.ico is not an image (text/html)'] },
    });
  });

  it('cannot tell when /favicon.ico could not be fetched', () => {
    expect(run([], { statusCode: null, error: 'timeout' })).toMatchObject({ passed: null, reason: expect.stringContaining('timeout') });
  });
});
