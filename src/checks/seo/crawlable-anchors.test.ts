import { describe, expect, it } from 'vitest';
import type { Anchor } from '../../parse/page-snapshot.ts';
import { makeContext } from '../../../test/support/check-context.ts';
import { crawlableAnchorsCheck } from './crawlable-anchors.ts';

const a = (href: string | null, extra: Partial<Anchor> = {}): Anchor => ({
  href, text: 'link', rel: [], target: null, role: null, isNamedAnchor: false, hasOnclick: false, label: null, linkOnlyAttributes: [], tagStart: 0, tagEnd: 0, ...extra,
});
const run = (...anchors: Anchor[]) => crawlableAnchorsCheck.run(makeContext({ snapshot: { anchors } }));

describe('crawlable_anchors', () => {
  it('passes real URLs, mailto:, fragments and plain placeholders', () => {
    expect(run(a('/about'), a('https://other.org/'), a('mailto:me@example.com'), a('#top'), a(null))).toEqual({
      passed: true,
      value: { anchors_checked: 5, uncrawlable: 0 },
      errors: null,
    });
  });

  it('fails empty, whitespace, javascript: and file: hrefs', () => {
    const outcome = run(a(''), a('   '), a('javascript:void(0)'), a(' JavaScript:open()'), a('file:///C:/page.html'));
    expect(outcome).toMatchObject({
      passed: false,
      value: { uncrawlable: 5, empty_href: 2, javascript_href: 2, file_href: 1 },
      errors: { empty_href: [{ href: '' }, { href: '   ' }], javascript_href: [{ href: 'javascript:void(0)' }, { href: ' JavaScript:open()' }], file_href: [{ href: 'file:///C:/page.html' }] },
    });
  });

  it('fails an unparsable href', () => {
    expect(run(a('http://exa mple.com/'))).toMatchObject({ passed: false, errors: { unparsable_href: [{ href: 'http://exa mple.com/' }] } });
  });

  it('fails an anchor without href that acts as a link through onclick', () => {
    expect(run(a(null, { hasOnclick: true }))).toMatchObject({ passed: false, errors: { onclick_without_href: [{ href: null, text: 'link' }] } });
  });

  it('fails an anchor without href that carries an attribute only a link may have (missing_href)', () => {
    const outcome = run(a(null, { text: 'Photo', linkOnlyAttributes: ['target', 'rel'] }), a(null, { linkOnlyAttributes: ['download'] }));
    expect(outcome).toMatchObject({
      passed: false,
      value: { uncrawlable: 2, missing_href: 2 },
      errors: { missing_href: [{ href: null, text: 'Photo', attributes: ['target', 'rel'] }, { href: null, attributes: ['download'] }] },
    });
  });

  it('leaves a placeholder without href alone when it is a jump target, has a role or carries no link attribute', () => {
    const named = a(null, { isNamedAnchor: true, linkOnlyAttributes: ['target'] });
    const button = a(null, { role: 'button', linkOnlyAttributes: ['rel'] });
    expect(run(named, button, a(null))).toMatchObject({ passed: true, value: { anchors_checked: 2, uncrawlable: 0 } });
  });

  it('skips anchors with a role and named anchors without href', () => {
    expect(run(a('javascript:void(0)', { role: 'button' }), a(null, { isNamedAnchor: true, hasOnclick: true }), a('/ok'))).toMatchObject({ passed: true, value: { anchors_checked: 2 } });
  });

  it('does not apply without anchors', () => {
    expect(run().passed).toBeNull();
  });
});
