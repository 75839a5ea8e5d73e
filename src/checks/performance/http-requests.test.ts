import { describe, it, expect } from 'vitest';
import { makeContext } from '../../../test/support/check-context.ts';
import type { Image, ResourceRef } from '../../parse/page-snapshot.ts';
import { httpRequestsCheck } from './http-requests.ts';

const ref = (tag: string, url: string, extra: Partial<ResourceRef> = {}): ResourceRef => ({ tag, attr: 'src', url, deferred: false, ...extra });
const img = (extra: Partial<Image>): Image => ({
  src: null, srcset: null, alt: '', width: '1', height: '1', loading: null, role: null, pictureSources: [], hidden: false, tagStart: 0, tagEnd: 0, ...extra,
});

describe('http_requests', () => {
  it('counts up-front requests by tag, once per URL, without srcset alternates, deferred or data: refs', () => {
    const resources = [
      ref('script', '/app.js'),
      ref('script', 'https://example.com/app.js#x'),
      ref('link', '/style.css', { attr: 'href' }),
      ref('img', '/a.jpg'),
      ref('img', '/a-2x.jpg', { attr: 'srcset' }),
      ref('img', '/lazy.jpg', { deferred: true }),
      ref('img', 'data:image/png;base64,AAAA'),
      ref('iframe', ''),
    ];
    const outcome = httpRequestsCheck.run(makeContext({ snapshot: { resources } }));
    expect(outcome).toMatchObject({ passed: true, value: { requests: 3, by_tag: { script: 1, link: 1, img: 1 }, deferred: 1 } });
  });

  it('counts an img that only has a srcset as one request, unless it is lazy', () => {
    const images = [img({ srcset: 'a.jpg 1x, b.jpg 2x' }), img({ srcset: 'c.jpg 1x', loading: 'LAZY' })];
    const outcome = httpRequestsCheck.run(makeContext({ snapshot: { images } }));
    expect(outcome).toMatchObject({ value: { requests: 1, by_tag: { img: 1 } } });
  });

  it('fails above the threshold', () => {
    const resources = Array.from({ length: 4 }, (_, i) => ref('img', `/img${i}.png`));
    const outcome = httpRequestsCheck.run(makeContext({ snapshot: { resources }, thresholds: { max_http_requests: 3 } }));
    expect(outcome).toMatchObject({ passed: false, errors: { too_many_requests: [{ requests: 4, max: 3 }] } });
  });
});
