import { describe, expect, it } from 'vitest';
import { MAX_OPEN_ELEMENTS } from './page-parser.ts';
import { parsePage } from './parse-page.ts';
import { PageText } from '../fetch/page-text.ts';

const URL = 'https://example.com/dir/page.html';
const parse = (html: string, finalUrl = URL) => parsePage(PageText.of(html), finalUrl);
/** A minimal standards-mode document around some body markup. */
const page = (body: string, head = '') => `<!DOCTYPE html><html><head>${head}</head><body>${body}</body></html>`;

describe('parsePage: head and body', () => {
  it('marks metas, links and scripts by whether they come before the body', () => {
    const snapshot = parse(
      page(
        '<meta name="late" content="x"><link rel="canonical" href="/b"><script src="/b.js"></script>',
        '<meta name="early" content="y"><link rel="canonical" href="/a"><script src="/a.js"></script>',
      ),
    );
    expect(snapshot.metas.map((meta) => [meta.name, meta.inHead])).toEqual([
      ['early', true],
      ['late', false],
    ]);
    expect(snapshot.linkTags.map((link) => link.inHead)).toEqual([true, false]);
    expect(snapshot.scripts.map((script) => script.inHead)).toEqual([true, false]);
  });

  it('implies the head for head elements before any body content, without <head> or <body> tags', () => {
    const snapshot = parse('<title>T</title><meta name="a"><div>content</div><meta name="b">');
    expect(snapshot.titles).toEqual(['T']);
    expect(snapshot.metas.map((meta) => meta.inHead)).toEqual([true, false]);
  });

  it('starts the body at text that is not whitespace', () => {
    const snapshot = parse('<meta name="a">\n  Hello<meta name="b">');
    expect(snapshot.metas.map((meta) => meta.inHead)).toEqual([true, false]);
    expect(snapshot.text.wordCount).toBe(1);
  });

  it('keeps head elements between </head> and <body> in the head, as browsers do', () => {
    const snapshot = parse('<html><head></head><meta name="a"><body><p>x</p></body></html>');
    expect(snapshot.metas[0].inHead).toBe(true);
  });

  it('does not let a noscript tracking pixel in the head start the body', () => {
    const snapshot = parse(page('', '<noscript><img src="/pixel.gif"></noscript><title>T</title>'));
    expect(snapshot.titles).toEqual(['T']);
    expect(snapshot.titlesOutsideHead).toBe(0);
  });

  it('reads <html lang>', () => {
    expect(parse('<html lang="de-CH"><p>x</p></html>').htmlLang).toBe('de-CH');
    expect(parse(page('x')).htmlLang).toBeNull();
  });
});

describe('parsePage: titles', () => {
  it('lists every title in the head, entity-decoded and not trimmed', () => {
    const snapshot = parse(page('', '<title> A &amp; B </title><title>Second</title>'));
    expect(snapshot.titles).toEqual([' A & B ', 'Second']);
    expect(snapshot.titlesOutsideHead).toBe(0);
  });

  it('counts titles in the body separately and ignores svg titles', () => {
    const snapshot = parse(
      page('<svg><title>icon</title></svg><title>Stray</title>', '<svg><title>also icon</title></svg><title>T</title>'),
    );
    expect(snapshot.titles).toEqual([]); // an <svg> in the head starts the body, as in browsers
    expect(snapshot.titlesOutsideHead).toBe(2);
    expect(parse(page('<svg><title>icon</title></svg>', '<title>T</title>')).titles).toEqual(['T']);
  });

  it('gives no titles for a page without one', () => {
    expect(parse(page('<p>x</p>')).titles).toEqual([]);
  });
});

describe('parsePage: doctype', () => {
  const modeOf = (html: string) => parse(html).doctype;

  it('gives standards mode for the HTML5 doctype and keeps the declaration as written', () => {
    expect(modeOf('<!DOCTYPE html><p>x')).toEqual({ raw: '!DOCTYPE html', standardsMode: true });
    expect(modeOf('<!doctype html><p>x').standardsMode).toBe(true);
  });

  it('gives no doctype and no standards mode without one', () => {
    expect(modeOf('<html><p>x</p></html>')).toEqual({ raw: null, standardsMode: false });
  });

  it('gives standards mode for HTML 4.01 strict with a system id', () => {
    expect(
      modeOf('<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01//EN" "http://www.w3.org/TR/html4/strict.dtd"><p>x').standardsMode,
    ).toBe(true);
  });

  it('refuses HTML 4.01 transitional with and without a system id, and XHTML 1.0 transitional', () => {
    expect(
      modeOf('<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN" "http://www.w3.org/TR/html4/loose.dtd">')
        .standardsMode,
    ).toBe(false);
    expect(modeOf('<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">').standardsMode).toBe(false);
    expect(
      modeOf(
        '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">',
      ).standardsMode,
    ).toBe(false);
  });

  it('accepts an XML declaration and comments before the doctype', () => {
    expect(modeOf('<?xml version="1.0" encoding="utf-8"?>\n<!-- hi --><!DOCTYPE html><p>x').standardsMode).toBe(true);
  });

  it('refuses a doctype that comes after content', () => {
    expect(modeOf('<p>x</p><!DOCTYPE html>')).toEqual({ raw: '!DOCTYPE html', standardsMode: false });
    expect(modeOf('text<!DOCTYPE html>').standardsMode).toBe(false);
  });
});

describe('parsePage: base URL', () => {
  it('resolves the final URL with the first <base href>', () => {
    const snapshot = parse(page('', '<base href="/root/"><base href="https://other.example/">'));
    expect(snapshot.baseHref).toBe('/root/');
    expect(snapshot.baseUrl).toBe('https://example.com/root/');
  });

  it('uses the final URL without a base, and with an unusable one', () => {
    expect(parse(page('')).baseUrl).toBe(URL);
    expect(parse(page('', '<base target="_blank">')).baseHref).toBeNull();
    expect(parse(page('', '<base href="http://[bad">')).baseUrl).toBe(URL);
    expect(parse(page('', '<base href="javascript:alert(1)">')).baseUrl).toBe(URL);
  });
});

describe('parsePage: metas and links', () => {
  it('lower-cases name, property and http-equiv and keeps content as written', () => {
    const snapshot = parse(
      page('', '<meta NAME="Description" content=" Hi "><meta property="OG:Title"><meta http-equiv="Content-Type">'),
    );
    expect(snapshot.metas[0]).toEqual({
      name: 'description',
      property: null,
      httpEquiv: null,
      charset: null,
      content: ' Hi ',
      inHead: true,
    });
    expect(snapshot.metas[1].property).toBe('og:title');
    expect(snapshot.metas[2].httpEquiv).toBe('content-type');
  });

  it('gives null content for metas that carry value= instead (the corpus quirk)', () => {
    const [meta] = parse(page('', '<meta name="description" value="text">')).metas;
    expect(meta.content).toBeNull();
  });

  it('reads charset', () => {
    expect(parse(page('', '<meta charset="UTF-8">')).metas[0].charset).toBe('UTF-8');
  });

  it('splits rel into lower-case tokens and lower-cases as', () => {
    const [link] = parse(
      page('', '<link rel=" Alternate  STYLESHEET" href="/s.css" hreflang="en" type="text/css" media="print" as="Style">'),
    ).linkTags;
    expect(link).toEqual({
      rel: ['alternate', 'stylesheet'],
      href: '/s.css',
      hreflang: 'en',
      type: 'text/css',
      media: 'print',
      as: 'style',
      inHead: true,
    });
  });
});

describe('parsePage: headings', () => {
  it('lists headings with their level and collapsed text, img alt included', () => {
    const snapshot = parse(page('<h1>\n  Big <em>news</em> <img alt="logo"> </h1><h3></h3><h2>Two<br>lines</h2>'));
    expect(snapshot.headings).toMatchObject([
      { level: 1, text: 'Big news logo' },
      { level: 3, text: '' },
      { level: 2, text: 'Two lines' },
    ]);
  });
});

describe('parsePage: anchors', () => {
  it('takes the collapsed text of nested markup and img alt', () => {
    const [anchor] = parse(page('<a href="/x">\n  Read <span><b>the</b>\n story</span> <img src="i.png" alt="now"></a>')).anchors;
    expect(anchor.text).toBe('Read the story now');
  });

  it('reads href, rel, target, role, named anchors, onclick and the label', () => {
    const [first, second, third] = parse(
      page(
        '<a href="/a" rel="NoFollow  noopener" target="_blank" aria-label="Label" title="T">a</a>' +
          '<a name="top" onclick="go()" role="button" title="Only title"></a>' +
          '<a id="x">x</a>',
      ),
    ).anchors;
    expect(first).toMatchObject({
      href: '/a',
      text: 'a',
      rel: ['nofollow', 'noopener'],
      target: '_blank',
      role: null,
      isNamedAnchor: false,
      hasOnclick: false,
      label: 'Label',
      linkOnlyAttributes: ['target', 'rel'],
    });
    expect(second).toMatchObject({ href: null, isNamedAnchor: true, hasOnclick: true, role: 'button', label: 'Only title' });
    expect(third.isNamedAnchor).toBe(true);
  });

  it('closes a link when another one starts inside it, as browsers do', () => {
    const anchors = parse(page('<a href="/1">one <a href="/2">two</a> three</a>')).anchors;
    expect(anchors.map((anchor) => anchor.text)).toEqual(['one', 'two']);
  });

  it('lists the attributes only a link may have, on links with or without href', () => {
    const [plain, placeholder, all] = parse(
      page(
        '<a href="/x">x</a><a target="_blank" rel="noopener noreferrer" class="disabled">y</a>' +
          '<a download ping="/p" hreflang="fr" type="text/html" referrerpolicy="no-referrer" rel="" target="">z</a>',
      ),
    ).anchors;
    expect(plain.linkOnlyAttributes).toEqual([]);
    expect(placeholder.linkOnlyAttributes).toEqual(['target', 'rel']);
    expect(all.linkOnlyAttributes).toEqual(['target', 'rel', 'download', 'ping', 'hreflang', 'type', 'referrerpolicy']);
  });

  it('excludes hidden and script text from link text', () => {
    const [anchor] = parse(page('<a href="/">Home<span hidden>secret</span><script>x()</script></a>')).anchors;
    expect(anchor.text).toBe('Home');
  });
});

describe('parsePage: images and picture', () => {
  it('reads the img attributes, telling a missing alt from an empty one', () => {
    const [withAlt, emptyAlt, noAlt] = parse(
      page(
        '<img src="a.png" alt="A" width="10" height="20" loading="lazy" role="presentation"><img src="b.png" alt=""><img src="c.png">',
      ),
    ).images;
    expect(withAlt).toMatchObject({
      src: 'a.png',
      srcset: null,
      alt: 'A',
      width: '10',
      height: '20',
      loading: 'lazy',
      role: 'presentation',
      pictureSources: [],
      hidden: false,
    });
    expect(emptyAlt.alt).toBe('');
    expect(noAlt.alt).toBeNull();
  });

  it('marks images hidden by a hidden attribute or an inline display:none, on them or an ancestor', () => {
    const images = parse(
      page(
        '<img src="shown.png"><img src="self.png" hidden><img src="pixel.gif" style="display:none">' +
          '<div hidden><p><img src="in-hidden.png"></p></div><div style="width:1px; DISPLAY: none"><span><img src="in-none.png"></span></div>' +
          '<div style="display:block"><img src="in-block.png"></div><img src="after.png" style="visibility:hidden">',
      ),
    ).images;
    expect(images.map((image) => [image.src, image.hidden])).toEqual([
      ['shown.png', false],
      ['self.png', true],
      ['pixel.gif', true],
      ['in-hidden.png', true],
      ['in-none.png', true],
      ['in-block.png', false],
      ['after.png', false],
    ]);
  });

  it('gives an img in a picture the sources before it', () => {
    const [image] = parse(
      page(
        '<picture><source type="image/avif" srcset="a.avif"><source srcset="a.webp 1x, b.webp 2x"><img src="a.jpg"><source srcset="late.webp"></picture><img src="b.jpg">',
      ),
    ).images;
    expect(image.pictureSources).toEqual([
      { type: 'image/avif', srcset: 'a.avif' },
      { type: null, srcset: 'a.webp 1x, b.webp 2x' },
    ]);
    expect(parse(page('<picture><img src="a.jpg"></picture><img src="b.jpg">')).images[1].pictureSources).toEqual([]);
  });
});

describe('parsePage: scripts and JSON-LD', () => {
  it('reads src, lower-case type, async and defer', () => {
    const snapshot = parse(page('<script src="/a.js" type="Module" async defer></script><script>inline()</script>'));
    expect(snapshot.scripts).toMatchObject([
      { src: '/a.js', type: 'module', async: true, defer: true, inHead: false },
      { src: null, type: null, async: false, defer: false, inHead: false },
    ]);
  });

  it('keeps the trimmed text of JSON-LD scripts, undecoded, and not as page text', () => {
    const json = '{"@context":"https://schema.org","name":"A &amp; B"}';
    const snapshot = parse(page(`<script type="Application/LD+JSON">\n ${json} \n</script><p>visible</p>`));
    expect(snapshot.jsonLd).toEqual([{ raw: json }]);
    expect(snapshot.text.wordCount).toBe(1);
  });
});

describe('parsePage: resources', () => {
  const refs = (html: string) => parse(html).resources.map((ref) => `${ref.tag} ${ref.attr} ${ref.url}${ref.deferred ? ' deferred' : ''}`);

  it('lists scripts, stylesheets, preloads and media, one ref per srcset candidate', () => {
    expect(
      refs(
        page(
          '<img src="i.png" srcset="i1.png 1x, i2.png 2x"><iframe src="/f"></iframe><video src="v.mp4" poster="p.jpg"><track src="t.vtt"></video>' +
            '<audio><source src="a.mp3"></audio><embed src="e.swf"><object data="o.pdf"></object><input type="image" src="b.png"><input src="ignored.png">',
          '<script src="s.js"></script><link rel="stylesheet" href="c.css"><link rel="preload" href="f.woff2" as="font"><link rel="modulepreload" href="m.js"><link rel="icon" href="fav.ico"><link rel="canonical" href="/">',
        ),
      ),
    ).toEqual([
      'script src s.js',
      'link href c.css',
      'link href f.woff2',
      'link href m.js',
      'img src i.png',
      'img srcset i1.png',
      'img srcset i2.png',
      'iframe src /f',
      'video src v.mp4',
      'video poster p.jpg',
      'track src t.vtt',
      'source src a.mp3',
      'embed src e.swf',
      'object data o.pdf',
      'input src b.png',
    ]);
  });

  it('marks lazy images and iframes, their picture sources and media with preload=none as deferred', () => {
    expect(
      refs(
        page(
          '<picture><source srcset="a.webp"><img src="a.jpg" loading="LAZY"></picture><iframe src="/f" loading="lazy"></iframe>' +
            '<video preload="none" src="v.mp4" poster="p.jpg"><source src="v.webm"></video><img src="eager.png">',
        ),
      ),
    ).toEqual([
      'source srcset a.webp deferred',
      'img src a.jpg deferred',
      'iframe src /f deferred',
      'video src v.mp4 deferred',
      'video poster p.jpg',
      'source src v.webm deferred',
      'img src eager.png',
    ]);
  });

  it('skips empty URLs and URLs that make no request', () => {
    expect(refs(page('<img src=""><img src="data:image/gif;base64,R0lGOD"><iframe src="about:blank"></iframe><script src=" "></script>'))).toEqual(
      [],
    );
  });
});

describe('parsePage: where elements are', () => {
  it('gives each link, image, script, form and heading the span of its start tag in the document', () => {
    const html = page('<h2 class="t">T</h2>\n<a\n href="/a">a</a><img src="i.png" alt=""/><script src="s.js"></script><form action="/f"></form>');
    const snapshot = parse(html);
    const tag = (element: { tagStart: number; tagEnd: number }) => html.slice(element.tagStart, element.tagEnd);
    expect(tag(snapshot.headings[0])).toBe('<h2 class="t">');
    expect(tag(snapshot.anchors[0])).toBe('<a\n href="/a">');
    expect(tag(snapshot.images[0])).toBe('<img src="i.png" alt=""/>');
    expect(tag(snapshot.scripts[0])).toBe('<script src="s.js">');
    expect(tag(snapshot.forms[0])).toBe('<form action="/f">');
  });
});

describe('parsePage: forms', () => {
  it('reads action and method and notices password fields inside the form', () => {
    const snapshot = parse(
      page(
        '<form action="http://example.com/login" method="POST"><input type="Password"></form><form><input type="text"></form><input type="password">',
      ),
    );
    expect(snapshot.forms).toMatchObject([
      { action: 'http://example.com/login', method: 'post', hasPasswordField: true },
      { action: null, method: 'get', hasPasswordField: false },
    ]);
  });

  it('ignores a form nested in a form, as browsers do', () => {
    const snapshot = parse(page('<form action="/a"><form action="/b"><input type="password"></form></form>'));
    expect(snapshot.forms).toMatchObject([{ action: '/a', method: 'get', hasPasswordField: true }]);
  });
});

describe('parsePage: structured data, inline styles, deprecated tags', () => {
  it('lists microdata itemtypes of itemscope elements and RDFa typeof values', () => {
    const snapshot = parse(
      page('<div itemscope itemtype="https://schema.org/Product"><span itemtype="https://schema.org/Ignored"></span></div><div typeof="schema:Person"></div>'),
    );
    expect(snapshot.microdataTypes).toEqual(['https://schema.org/Product']);
    expect(snapshot.rdfaTypes).toEqual(['schema:Person']);
  });

  it('counts style attributes outside svg only', () => {
    expect(parse(page('<p style="color:red">a</p><svg style="x"><path style="fill:red"/></svg><div style="">b</div>')).inlineStyleCount).toBe(
      2,
    );
  });

  it('counts deprecated tags by name', () => {
    expect(parse(page('<center><font>a</font><font>b</font></center><marquee>m</marquee><s>ok</s>')).deprecatedTags).toEqual({
      center: 1,
      font: 2,
      marquee: 1,
    });
    expect(parse(page('<p>x</p>')).deprecatedTags).toEqual({});
  });
});

describe('parsePage: document shape', () => {
  it('counts start tags, not the elements htmlparser2 implies for stray end tags', () => {
    const snapshot = parse('<html><body><p>x</p></p></br><ul><li>a<li>b</ul></body></html>');
    expect(snapshot.elementCount).toBe(6);
  });

  it('measures the deepest nesting; void elements add a level but do not nest', () => {
    expect(parse('<html><body><div><img><br><span>x</span></div></body></html>').maxDepth).toBe(4);
  });

  it('lists ids used more than once, each once', () => {
    expect(parse(page('<p id="a"></p><p id="a"></p><p id="a"></p><p id="b"></p><p id=""></p><p id=""></p>')).duplicateIds).toEqual([
      'a',
    ]);
  });
});

describe('parsePage: visible text', () => {
  it('counts only visible body text', () => {
    const snapshot = parse(
      page(
        '<p>one two</p><script>var hidden = 1;</script><style>.x{}</style><noscript>no script</noscript><template><p>tpl</p></template>' +
          '<textarea>typed</textarea><div hidden><p>secret <b>words</b></p></div><svg><text>svg</text></svg><p>three</p>',
        '<title>Title words</title>',
      ),
    );
    expect(snapshot.text.wordCount).toBe(3);
    expect([...snapshot.text.words]).toEqual(['one', 'two', 'three']);
    expect(snapshot.text.charCount).toBe('one two three'.length);
  });

  it('separates words at block elements but not at inline ones', () => {
    const snapshot = parse(page('<p>foo</p><p>bar</p><span>ba</span><b>z</b><br>end'));
    expect([...snapshot.text.words]).toEqual(['foo', 'bar', 'baz', 'end']);
  });

  it('counts CJK text by character', () => {
    expect(parse(page('<p>日本語のページです。</p>')).text.wordCount).toBe(9);
  });

  it('finds e-mail addresses in visible text only', () => {
    const snapshot = parse(
      page('<p>Contact: info@example.com.</p><div hidden>hidden@example.com</div><a title="attr@example.com">x</a><script>"js@example.com"</script>'),
    );
    expect(snapshot.text.emails).toEqual(['info@example.com']);
  });

  it('lists the addresses of mailto links', () => {
    const snapshot = parse(page('<a href="mailto:sales%40example.com?subject=Hi">Sales</a><a href="mailto:Sales@example.com">again</a>'));
    expect(snapshot.mailtoEmails).toEqual(['sales@example.com']);
  });

  it('reports the length of the HTML', () => {
    expect(parse('<p>é</p>').htmlLength).toBe(8);
  });
});

describe('parsePage: inert content', () => {
  it('collects nothing from noscript or template content, which a scripting browser neither shows nor loads', () => {
    const snapshot = parse(
      page(
        '<noscript><img src="/pixel.gif"><iframe src="https://tags.example/ns"></iframe><a href="/x">x</a></noscript><template><img src="t.png"><h1>T</h1></template>',
      ),
    );
    expect(snapshot.images).toEqual([]);
    expect(snapshot.resources).toEqual([]);
    expect(snapshot.anchors).toEqual([]);
    expect(snapshot.headings).toEqual([]);
  });
});

describe('parsePage: hostile input', () => {
  it('never throws on binary garbage', () => {
    const garbage = Array.from({ length: 200_000 }, (_, i) => String.fromCharCode((i * 2_654_435_761) % 65_536)).join('');
    expect(() => parse(garbage)).not.toThrow();
    expect(() => parse('\u0000<\u0000a\u0000 href=\u0000>\uD800</')).not.toThrow();
  });

  it('handles 100,000 nested elements, capping the depth', () => {
    const snapshot = parse(`${'<div>'.repeat(100_000)}deep${'</div>'.repeat(100_000)}`);
    expect(snapshot.elementCount).toBe(100_000);
    expect(snapshot.maxDepth).toBe(MAX_OPEN_ELEMENTS + 1);
    expect(snapshot.text.wordCount).toBe(1);
  });

  it('handles unclosed elements and input that stops inside a tag', () => {
    const snapshot = parse('<html><body><a href="/one">one<p>para<a href="/two" cla');
    expect(snapshot.anchors.map((anchor) => anchor.href)).toEqual(['/one']);
    expect(snapshot.anchors[0].text).toBe('one para');
    expect(snapshot.elementCount).toBe(4);
  });

  it('handles a megabyte attribute and invalid character references', () => {
    const snapshot = parse(`<img src="${'a'.repeat(1 << 20)}" alt="&#xD800;&#0;&bogus;&amp">&#x110000;&notanentity; x`);
    expect(snapshot.images[0].src).toHaveLength(1 << 20);
    expect(snapshot.images[0].alt).toBe('\uFFFD\uFFFD&bogus;&');
    // browsers read "&not" without its semicolon as "¬": the text is "\uFFFD¬anentity; x"
    expect([...snapshot.text.words]).toEqual(['anentity', 'x']);
  });

  it('handles an empty document', () => {
    const snapshot = parse('');
    expect(snapshot.elementCount).toBe(0);
    expect(snapshot.titles).toEqual([]);
    expect(snapshot.doctype).toEqual({ raw: null, standardsMode: false });
  });
});
