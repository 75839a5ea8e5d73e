import { describe, it, expect } from 'vitest';
import { makeContext } from '../../../test/support/check-context.ts';
import type { Anchor } from '../../parse/page-snapshot.ts';
import { unsafeCrossOriginLinksCheck } from './unsafe-cross-origin-links.ts';

const anchor = (href: string, extra: Partial<Anchor> = {}): Anchor => ({
  href, text: 'x', rel: [], target: '_blank', role: null, isNamedAnchor: false, hasOnclick: false, label: null, linkOnlyAttributes: [], tagStart: 0, tagEnd: 0, ...extra,
});
const run = (anchors: Anchor[]) => unsafeCrossOriginLinksCheck.run(makeContext({ snapshot: { anchors } }));

describe('unsafe_cross_origin_links', () => {
  it('does not apply when no link opens another site in a new tab', () => {
    const outcome = run([anchor('https://other.test/', { target: null }), anchor('/same'), anchor('https://www.example.com/x')]);
    expect(outcome.passed).toBeNull();
  });

  it('passes external new-tab links with noopener or noreferrer', () => {
    const outcome = run([anchor('https://a.test/', { rel: ['noopener'] }), anchor('https://b.test/', { rel: ['nofollow', 'noreferrer'] })]);
    expect(outcome).toMatchObject({ passed: true, value: { external_new_tab_links: 2, unsafe: 0 } });
  });

  it('fails external new-tab links without them, whatever the case of target', () => {
    const outcome = run([anchor('https://a.test/x', { target: '_BLANK', rel: ['nofollow'] }), anchor('https://b.test/', { rel: ['noopener'] })]);
    expect(outcome).toMatchObject({ passed: false, value: { unsafe: 1 }, errors: { missing_noopener: [{ href: 'https://a.test/x' }] } });
  });

  it('counts every unsafe link but lists the first 25 distinct URLs', () => {
    const anchors = Array.from({ length: 40 }, (_, i) => anchor(`https://s${i % 30}.test/p`));
    const outcome = run(anchors);
    expect(outcome).toMatchObject({ passed: false, value: { external_new_tab_links: 40, unsafe: 40 } });
    expect(outcome.passed === false && outcome.errors?.missing_noopener).toMatchObject(Array.from({ length: 25 }, (_, i) => ({ href: `https://s${i}.test/p` })));
  });
});
