import { describe, expect, it } from 'vitest';
import { parsePage } from '../parse/parse-page.ts';
import { firstDistinctLocated, locate } from './locate.ts';
import { PageText } from '../fetch/page-text.ts';

const HTML = '<!doctype html>\n<html><body>\n<p>Intro</p>\n  <img   src="/a.png"\n   alt=" ">\n<img src="/b.png"></body></html>';

describe('locate', () => {
  it('gives the line of the start tag and the tag as written, whitespace folded', () => {
    const [first, second] = parsePage(PageText.of(HTML), 'https://example.com/').images;
    expect(locate({ html: PageText.of(HTML) }, first)).toEqual({ line: 4, snippet: '<img src="/a.png" alt=" ">' });
    expect(locate({ html: PageText.of(HTML) }, second)).toEqual({ line: 6, snippet: '<img src="/b.png">' });
  });

  it('cuts a long tag short', () => {
    const html = `<p>x</p><img src="data:image/png;base64,${'A'.repeat(5000)}">`;
    const { line, snippet } = locate({ html: PageText.of(html) }, parsePage(PageText.of(html), 'https://example.com/').images[0]);
    expect(line).toBe(1);
    expect(snippet.length).toBe(160);
    expect(snippet.startsWith('<img src="data:image/png;base64,AAAA')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
  });

  it('lists one located item per distinct key, the first element that has it', () => {
    const html = '<a href="/x">1</a>\n<a href="/y">2</a>\n<a href="/x">3</a>';
    const anchors = parsePage(PageText.of(html), 'https://example.com/').anchors;
    expect(firstDistinctLocated(anchors, (anchor) => anchor.href ?? '', (anchor) => anchor, 'href', { html: PageText.of(html) })).toEqual([
      { href: '/x', line: 1, snippet: '<a href="/x">' },
      { href: '/y', line: 2, snippet: '<a href="/y">' },
    ]);
  });
});
