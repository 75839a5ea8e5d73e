import { describe, expect, it } from 'vitest';
import { anchorTargets, isWebProtocol, resourceTargets } from './link-urls.ts';
import type { Anchor, ResourceRef } from './page-snapshot.ts';
import { resolveUrl, withoutHash } from './url.ts';

const anchor = (href: string | null): Anchor => ({
  href,
  text: '',
  rel: [],
  target: null,
  role: null,
  isNamedAnchor: false,
  hasOnclick: false,
  label: null,
  linkOnlyAttributes: [],
  tagStart: 0,
  tagEnd: 0,
});
const HREFS = [null, '/about', 'https://Other.example/x#y', '#top', 'mailto:a@b.c', 'https://[bad/', 'http://127.0.0.1:8080/', '  ../up  ', 'javascript:void(0)'];

describe('anchorTargets', () => {
  it('gives the protocol, hostname and URL resolveUrl gives for each href', () => {
    for (const baseUrl of ['https://www.example.com/dir/page', 'about:blank']) {
      const snapshot = { anchors: HREFS.map(anchor), baseUrl };
      const targets = anchorTargets(snapshot);
      HREFS.forEach((href, i) => {
        const url = href === null ? null : resolveUrl(href, baseUrl);
        expect({ href, protocol: targets.protocols[i], hostname: targets.hostnames[i] }).toEqual({
          href,
          protocol: url?.protocol ?? '',
          hostname: url?.hostname ?? '',
        });
        expect(targets.url(i)).toBe(url);
      });
    }
  });

  it('gives the pathname and the href without its fragment as the parsed URL has them', () => {
    const hrefs = [null, '#top', '  #x y', '#', '/a#b', 'b/c.png?', 'https://other.example/p?q#f', '/d#', '/e/../f', 'https://[bad/', '\t#tab', 'mailto:x@y.z'];
    for (const baseUrl of ['https://www.example.com/dir/page?x=1#old', 'not a url']) {
      const targets = anchorTargets({ anchors: hrefs.map(anchor), baseUrl });
      hrefs.forEach((href, i) => {
        const url = href === null ? null : resolveUrl(href, baseUrl);
        expect({
          href,
          withoutFragment: targets.hrefWithoutFragment(i),
          withoutHash: targets.hrefWithoutHash(i),
          pathname: targets.pathname(i),
        }).toEqual({
          href,
          withoutFragment: url === null ? null : url.href.split('#')[0],
          withoutHash: url === null ? null : withoutHash(url),
          pathname: url === null ? null : url.pathname,
        });
      });
    }
  });

  it('works each snapshot out once', () => {
    const snapshot = { anchors: [anchor('/a')], baseUrl: 'https://example.com/' };
    expect(anchorTargets(snapshot)).toBe(anchorTargets(snapshot));
    expect(anchorTargets({ ...snapshot })).not.toBe(anchorTargets(snapshot));
  });
});

describe('resourceTargets', () => {
  it('resolves every resource against the base URL, once per snapshot', () => {
    const resources: ResourceRef[] = ['/a.js', 'http://cdn.example/b.css', 'https://[bad/'].map((url) => ({ tag: 'script', attr: 'src', url, deferred: false }));
    const snapshot = { resources, baseUrl: 'https://example.com/' };
    const targets = resourceTargets(snapshot);
    expect([0, 1, 2].map((i) => targets.url(i)?.href ?? null)).toEqual(['https://example.com/a.js', 'http://cdn.example/b.css', null]);
    expect(targets.protocols).toEqual(['https:', 'http:', '']);
    expect(targets.hostnames).toEqual(['example.com', 'cdn.example', '']);
    expect(resourceTargets(snapshot)).toBe(targets);
  });
});

describe('isWebProtocol', () => {
  it('is true for http: and https: only', () => {
    expect(['http:', 'https:', 'ftp:', '', 'javascript:'].map(isWebProtocol)).toEqual([true, true, false, false, false]);
  });
});
