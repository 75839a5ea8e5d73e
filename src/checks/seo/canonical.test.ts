import { describe, expect, it } from 'vitest';
import type { LinkTag } from '../../parse/page-snapshot.ts';
import { makeContext } from '../../../test/support/check-context.ts';
import { canonicalCheck } from './canonical.ts';

const link = (href: string | null, inHead = true): LinkTag => ({ rel: ['canonical'], href, hreflang: null, type: null, media: null, as: null, inHead });
const run = (linkTags: LinkTag[], headers: Record<string, string> = {}) => canonicalCheck.run(makeContext({ snapshot: { linkTags }, page: { headers } }));

describe('canonical', () => {
  it('passes one absolute canonical and reports it', () => {
    expect(run([link('https://example.com/page')])).toEqual({
      passed: true,
      value: { canonical: 'https://example.com/page', points_to_self: true, declarations: [{ source: 'head', href: 'https://example.com/page' }], ignored_in_body: 0 },
      errors: null,
    });
  });

  it('passes a Link header canonical that agrees with the head', () => {
    const outcome = run([link('https://example.com/page')], { link: '<https://example.com/page>; rel="canonical"' });
    expect(outcome).toMatchObject({ passed: true, value: { declarations: [{ source: 'head' }, { source: 'header' }] } });
  });

  it('fails conflicting canonicals', () => {
    const outcome = run([link('https://example.com/page')], { link: '<https://example.com/other>; rel=canonical' });
    expect(outcome).toMatchObject({ passed: false, errors: { conflicting: ['https://example.com/page', 'https://example.com/other'] } });
  });

  it('fails a relative canonical, showing the absolute URL to write', () => {
    expect(run([link('/page')])).toMatchObject({
      passed: false,
      value: { canonical: 'https://example.com/page' },
      errors: { relative: [{ source: 'head', href: '/page', message: 'relative URL; write it in full: https://example.com/page' }] },
    });
  });

  it('fails an empty, unparsable or non-http canonical', () => {
    expect(run([link('')])).toMatchObject({ passed: false, errors: { invalid: [{ href: '' }] } });
    expect(run([link('http://[bad')])).toMatchObject({ passed: false, errors: { invalid: [{ href: 'http://[bad' }] } });
    expect(run([link('ftp://example.com/page')]).passed).toBe(false);
  });

  it('ignores canonicals in the body, and does not apply without any', () => {
    expect(run([link('https://example.com/elsewhere', false)])).toEqual({ passed: null, value: { ignored_in_body: 1 }, reason: 'the page declares no canonical URL' });
    expect(run([]).passed).toBeNull();
  });
});
