// A fetched page is parsed in the pieces it was decoded in (PageText); the snapshot must not depend on
// where the pieces end: a tag, an attribute, a character reference or a script's end tag cut in two.
import { describe, expect, it } from 'vitest';
import { decodeText } from '../fetch/charset.ts';
import { PageText } from '../fetch/page-text.ts';
import { loadCorpus } from '../../test/support/corpus.ts';
import { parsePage } from './parse-page.ts';
import type { PageSnapshot } from './page-snapshot.ts';
import { decodeBody } from '../fetch/decode-page.ts';

const URL = 'https://example.com/dir/page.html';

/** `html` in pieces of `size` characters, a surrogate pair never split (as a decoder never splits one). */
function cut(html: string, size: number): PageText {
  const pieces: string[] = [];
  for (let at = 0; at < html.length; ) {
    let end = Math.min(at + size, html.length);
    const last = html.charCodeAt(end - 1);
    if (end < html.length && last >= 0xd800 && last <= 0xdbff) end++;
    pieces.push(html.slice(at, end));
    at = end;
  }
  return new PageText(pieces);
}

/** The snapshot with its words as a sorted list: the word set keeps them as ranges of the pieces. */
function parsed(text: PageText, url: string): unknown {
  const snapshot: PageSnapshot = parsePage(text, url);
  return { ...snapshot, text: { ...snapshot.text, words: [...snapshot.text.words].sort() } };
}

const TRICKY = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Caf&eacute; &amp; cr&egrave;me &#x1F600;</title>
<meta name="description" content="Fresh &quot;bread&quot; &amp; caf&eacute; daily">
<link rel="canonical" href="/dir/page?a=1&amp;b=2"><script type="application/ld+json">{"@type":"Bakery","name":"A &amp; B"}</script>
<script>if (a < b && c > d) { document.write("</scr" + "ipt>"); }</script><style>p{color:red}</style>
<!-- a comment with <tags> inside --></head><BODY class=x><h1 id=top>Fresh   bread</H1><p>Some <b>bold</b> text, \u{1F600} and \u65e5\u672c\u8a9e.</p>
<a href="/one" title='single &lt; quoted'>One link</a> <a href=/two>Two &nbsp;links</a><img src="/a.png" alt="An &quot;image&quot;" width=10>
<svg><![CDATA[ raw ]]><path d="M0 0"/></svg><p>x < y &notanentity; and &amp</p><table><tr><td>cell<td>cell 2</table>
<form action="/go"><input name=q></form><div style="display:none">hidden words</div><p>Last paragraph`;

describe('parsePage in pieces', () => {
  it.each([1, 2, 3, 5, 8, 13, 64, 1000])('gives the same snapshot of a tricky page cut every %i characters', (size) => {
    expect(parsed(cut(TRICKY, size), URL)).toEqual(parsed(PageText.of(TRICKY), URL));
  });

  it('gives the same snapshot of every corpus page cut into small and decoder-sized pieces', () => {
    for (const page of loadCorpus()) {
      const html = decodeText(page.bytes, 'utf-8');
      const whole = parsed(PageText.of(html), page.url);
      expect(parsed(cut(html, 997), page.url), page.file).toEqual(whole);
      expect(parsed(decodeBody(page.bytes, 'utf-8'), page.url), page.file).toEqual(whole);
    }
  });
});
