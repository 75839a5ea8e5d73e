import { describe, it, expect } from 'vitest';
import { makeContext } from '../../../test/support/check-context.ts';
import type { Anchor } from '../../parse/page-snapshot.ts';
import { socialCheck } from './social.ts';

const anchor = (href: string | null, rel: string[] = []): Anchor => ({
  href, text: 'x', rel, target: null, role: null, isNamedAnchor: false, hasOnclick: false, label: null, linkOnlyAttributes: [], tagStart: 0, tagEnd: 0,
});
const run = (...anchors: Anchor[]) => socialCheck.run(makeContext({ snapshot: { anchors } }));

describe('social', () => {
  it('passes profile links on social hosts, subdomains included', () => {
    const outcome = run(
      anchor('https://x.com/example'),
      anchor('https://www.facebook.com/example/#top'),
      anchor('https://de.linkedin.com/company/example'),
      anchor('https://bsky.app/profile/example.com'),
      anchor('https://x.com/example'),
    );
    expect(outcome).toMatchObject({
      passed: true,
      value: {
        profile_count: 4,
        networks: ['x', 'facebook', 'linkedin', 'bluesky'],
        profiles: ['https://x.com/example', 'https://www.facebook.com/example/', 'https://de.linkedin.com/company/example', 'https://bsky.app/profile/example.com'],
      },
    });
  });

  it('counts a rel=me link to another site (e.g. a Mastodon instance)', () => {
    expect(run(anchor('https://fosstodon.org/@example', ['me']))).toMatchObject({ passed: true, value: { networks: ['fosstodon.org'] } });
  });

  it('fails with share buttons, home pages and look-alike hosts only', () => {
    const outcome = run(
      anchor('https://twitter.com/intent/tweet?url=x'),
      anchor('https://www.facebook.com/sharer/sharer.php?u=x'),
      anchor('https://www.linkedin.com/shareArticle?mini=true'),
      anchor('https://pinterest.com/pin/create/button/?url=x'),
      anchor('https://www.youtube.com/'),
      anchor('https://notx.com/example'),
      anchor(null),
    );
    expect(outcome).toMatchObject({ passed: false, value: { profile_count: 0 }, errors: { missing: [expect.any(String)] } });
  });
});
