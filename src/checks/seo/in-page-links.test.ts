import { describe, expect, it } from 'vitest';
import type { Anchor } from '../../parse/page-snapshot.ts';
import { makeContext } from '../../../test/support/check-context.ts';
import { inPageLinksCheck } from './in-page-links.ts';

const a = (href: string | null, rel: string[] = []): Anchor => ({ href, text: 'link', rel, target: null, role: null, isNamedAnchor: false, hasOnclick: false, label: null, linkOnlyAttributes: [], tagStart: 0, tagEnd: 0 });
const run = (anchors: Anchor[], max_links?: number) =>
  inPageLinksCheck.run(makeContext({ snapshot: { anchors }, thresholds: max_links === undefined ? {} : { max_links } }));

describe('in_page_links', () => {
  it('counts internal, external and nofollow http(s) links', () => {
    const anchors = [
      a('/about'),
      a('https://www.example.com/shop'), // www. is the same site
      a('https://other.org/', ['nofollow']),
      a('mailto:me@example.com'),
      a('#top'), // same page
      a('/page#section'), // same page
      a(null),
    ];
    expect(run(anchors)).toEqual({ passed: true, value: { internal: 2, external: 1, nofollow: 1, total: 3, max: 150 }, errors: null });
  });

  it('fails above the configured maximum', () => {
    expect(run([a('/a'), a('/b'), a('/c')], 2)).toMatchObject({ passed: false, errors: { too_many: [{ total: 3, max: 2 }] } });
  });
});
