// PageParser replaces htmlparser2's Parser: with the nesting cap out of reach it must report the same
// elements, attributes, text and declarations as Parser with parsePage's options.
import fc from 'fast-check';
import { Parser } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { Attr, isValueRead } from './attribute-names.ts';
import { PageParser, type PageParserHandler } from './page-parser.ts';
import { PARSER_OPTIONS } from './parse-page.ts';
import { TAG_RULES } from './tag-rules.ts';
import { PageText } from '../fetch/page-text.ts';

const ATTRIBUTE_NAMES = new Map<number, string>(
  Object.entries(Attr).map(([key, id]) => [id, key === 'AriaLabel' ? 'aria-label' : key === 'HttpEquiv' ? 'http-equiv' : key.toLowerCase()]),
);

type Event = string;

/** Adjacent text events as one, as text may arrive in pieces. */
function push(events: Event[], event: Event): void {
  const last = events.length - 1;
  if (event.startsWith('text:') && last >= 0 && events[last].startsWith('text:')) events[last] += event.slice(5);
  else events.push(event);
}

function htmlparser2Events(html: string): Event[] {
  const events: Event[] = [];
  const parser = new Parser(
    {
      onopentagname: (name) => push(events, `open:${name}`),
      onattribute: (name, value) => {
        const id = [...ATTRIBUTE_NAMES].find(([, known]) => known === name)?.[0];
        // PageParser gives '' for the attributes whose value is never read
        if (id !== undefined) push(events, `attr:${name}=${isValueRead(id) ? value : ''}`);
      },
      onclosetag: (name, implied) => push(events, `close:${name}${implied ? ' (implied)' : ''}`),
      ontext: (text) => push(events, `text:${text}`),
      onprocessinginstruction: (name, data) => {
        if (name.startsWith('!')) push(events, `declaration:${name}|${data}`);
      },
    },
    PARSER_OPTIONS,
  );
  parser.end(html);
  return events;
}

function pageParserEvents(html: string): Event[] {
  const events: Event[] = [];
  const handler: PageParserHandler = {
    depth: 0,
    onopentagname: (name, rule) => {
      expect(rule).toBe(TAG_RULES.get(name) ?? 0);
      push(events, `open:${name}`);
    },
    onattribute: (id, value) => push(events, `attr:${ATTRIBUTE_NAMES.get(id)}=${value}`),
    onstarttagend: () => {},
    onclosetag: (name, implied) => push(events, `close:${name}${implied ? ' (implied)' : ''}`),
    ontextrange: (source, start, end) => push(events, `text:${source.slice(start, end)}`),
    ontext: (text) => push(events, `text:${text}`),
    ondeclaration: (name, data) => push(events, `declaration:${name}|${data}`),
  };
  new PageParser(handler).parseDocument(PageText.of(html));
  return events;
}

function expectSameEvents(html: string): void {
  expect(pageParserEvents(html)).toEqual(htmlparser2Events(html));
}

describe('PageParser', () => {
  it('closes elements as htmlparser2 does: implied ends, void elements, stray end tags', () => {
    expectSameEvents('<ul><li>one<li>two</ul><p>a<div>b</p></br><table><tr><td>x<td>y<tr><td>z</table>');
    expectSameEvents('<select><option>a<optgroup><option>b</select><dl><dt>t<dd>d</dl><ruby>x<rt>a<rp>b</ruby>');
    expectSameEvents('<html><head><link rel=stylesheet href=a.css><script>x</script><body><img src=a><br/><input></span>');
    expectSameEvents('<DIV Class=x ID=Main>Text</div><A HREF="/x">Link</A><x-custom>y</X-CUSTOM>');
  });

  it('closes `<x/>` only in svg and math, as htmlparser2 does', () => {
    expectSameEvents('<svg><path d="M0"/><title>t</title><foreignObject><div/>x</foreignObject><g/></svg><div/>after');
    expectSameEvents('<math><mi>x</mi><mo/></math><span/><p>');
  });

  it('decodes entities in text and attributes and keeps declarations', () => {
    expectSameEvents('<!DOCTYPE html><?xml version="1.0"?><!-- c --><title>A &amp; B</title><a href="?a=1&amp;b=&#x32;" title=&quot;q>caf&eacute;</a>');
  });

  it('reports the same events as htmlparser2 on generated markup', () => {
    const tags = ['a', 'p', 'div', 'li', 'ul', 'td', 'tr', 'table', 'svg', 'math', 'title', 'script', 'img', 'br', 'input', 'option', 'h1', 'dd', 'rt', 'tbody', 'body', 'head', 'DIV', 'x-y', 'İ', 'lin\u212a'];
    const attributes = ['href', 'HREF', 'class', 'id', 'rel', 'alt', 'data-x', 'http-equiv', 'style', 'Hidden', '\u212aey'];
    const tag = fc
      .tuple(fc.constantFrom(...tags), fc.array(fc.tuple(fc.constantFrom(...attributes), fc.constantFrom('', 'v', 'a&amp;b', '"q"')), { maxLength: 2 }), fc.boolean())
      .map(([name, attrs, selfClosing]) => `<${name}${attrs.map(([attribute, value]) => ` ${attribute}="${value}"`).join('')}${selfClosing ? '/' : ''}>`);
    const token = fc.oneof(tag, fc.constantFrom(...tags).map((name) => `</${name}>`), fc.constantFrom('text', ' ', '&amp;', '&lt;', '<!x>', '<!--c-->', '<', '</p>', '</br>'));
    fc.assert(
      fc.property(fc.array(token, { maxLength: 30 }), (tokens) => {
        expectSameEvents(tokens.join(''));
      }),
      { numRuns: 1000 },
    );
  });
});
