import { describe, expect, it } from 'vitest';
import type { Anchor } from '../../parse/page-snapshot.ts';
import { makeContext } from '../../../test/support/check-context.ts';
import { linkTextCheck } from './link-text.ts';

const a = (href: string, text: string, rel: string[] = []): Anchor => ({ href, text, rel, target: null, role: null, isNamedAnchor: false, hasOnclick: false, label: null, linkOnlyAttributes: [], tagStart: 0, tagEnd: 0 });
const run = (anchors: Anchor[], htmlLang: string | null = 'en') => linkTextCheck.run(makeContext({ snapshot: { anchors, htmlLang } }));

describe('link_text', () => {
  it('passes descriptive link texts', () => {
    expect(run([a('/pricing', 'Our pricing plans'), a('/more', 'More about our bread')])).toEqual({
      passed: true,
      value: { links_checked: 2, generic: 0 },
      errors: null,
    });
  });

  it('fails generic texts, ignoring case, trailing punctuation and arrows', () => {
    const outcome = run([a('/a', 'Click here'), a('/b', 'Read more »'), a('/c', 'more…'), a('/d', 'Fresh bread')]);
    expect(outcome).toMatchObject({
      passed: false,
      value: { links_checked: 4, generic: 3 },
      errors: { generic: [{ href: '/a', text: 'Click here' }, { href: '/b', text: 'Read more »' }, { href: '/c', text: 'more…' }] },
    });
  });

  it('knows generic texts in other languages', () => {
    expect(run([a('/a', 'Weiterlesen →')], 'de').passed).toBe(false);
    expect(run([a('/a', 'En savoir plus')], 'fr').passed).toBe(false);
    expect(run([a('/a', '続きを読む')], 'ja').passed).toBe(false);
    // Without a declared language every list applies.
    expect(run([a('/a', 'Leer más')], null).passed).toBe(false);
  });

  it("uses the page language's list, so a word generic elsewhere is not flagged", () => {
    // "mer" is generic in Swedish ("more") but means "sea" in French.
    expect(run([a('/a', 'Mer')], 'fr').passed).toBe(true);
    expect(run([a('/a', 'Mer')], 'sv').passed).toBe(false);
  });

  it('skips nofollow, javascript:, mailto:, tel:, same-page and empty-text links', () => {
    const anchors = [
      a('/a', 'here', ['nofollow']),
      a('javascript:void(0)', 'here'),
      a('mailto:me@example.com', 'here'),
      a('tel:+331234', 'here'),
      a('#comments', 'more'),
      a('/page#top', 'here'),
      a('/b', ''),
    ];
    expect(run(anchors)).toMatchObject({ passed: null });
  });

  it('skips links whose href is empty: they point at the page itself, like # links', () => {
    expect(run([a('', 'Read more'), a('  ', 'more'), a('/story', 'The full story')])).toEqual({
      passed: true,
      value: { links_checked: 1, generic: 0 },
      errors: null,
    });
  });
});
