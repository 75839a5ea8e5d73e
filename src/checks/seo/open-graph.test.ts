import { describe, expect, it } from 'vitest';
import type { MetaTag } from '../../parse/page-snapshot.ts';
import { makeContext } from '../../../test/support/check-context.ts';
import { openGraphCheck } from './open-graph.ts';

const property = (key: string, content: string | null): MetaTag => ({ name: null, property: key, httpEquiv: null, charset: null, content, inHead: true });
const named = (key: string, content: string | null): MetaTag => ({ ...property(key, content), name: key, property: null });
const run = (...metas: MetaTag[]) => openGraphCheck.run(makeContext({ snapshot: { metas } }));

const COMPLETE = [
  property('og:title', 'Rye bread'),
  property('og:description', 'How we bake it'),
  property('og:image', 'https://example.com/rye.jpg'),
  named('twitter:card', 'summary_large_image'),
];

describe('open_graph', () => {
  it('passes with og:title, og:description, an absolute og:image and twitter:card', () => {
    expect(run(...COMPLETE)).toEqual({
      passed: true,
      value: { og_title: 'Rye bread', og_description: 'How we bake it', og_image: 'https://example.com/rye.jpg', twitter_card: 'summary_large_image' },
      errors: null,
    });
  });

  it('accepts name= as well as property=', () => {
    expect(run(named('og:title', 'A'), named('og:description', 'B'), named('og:image', 'https://example.com/i.png'), property('twitter:card', 'summary')).passed).toBe(true);
  });

  it('lists what is missing, counting tags without content (value=) as missing', () => {
    expect(run(property('og:title', 'Rye'), property('og:description', null))).toMatchObject({
      passed: false,
      errors: { missing: ['og:description', 'og:image', 'twitter:card'] },
    });
  });

  it('fails a relative og:image', () => {
    expect(run(...COMPLETE.slice(0, 2), property('og:image', '/rye.jpg'), COMPLETE[3])).toMatchObject({ passed: false, errors: { not_absolute: ['/rye.jpg'] } });
  });
});
