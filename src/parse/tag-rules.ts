// What the parser needs to know about a tag name, packed into one number so a start tag costs a
// single Map lookup (its end tag reuses the number): trait bits in the low byte, the element kind
// (for tags whose attributes are collected) above it.
import { NameTable } from './name-table.ts';

/** Starts or ends a line of text: `a<div>b</div>` is two words; `a<b>b</b>` stays one. */
export const BREAKS_TEXT = 1;
/** May come before <body> without starting it (the HTML standard's "in head" elements). */
export const HEAD_CONTENT = 2;
/** Its text is never shown. */
export const HIDES_TEXT = 4;
/**
 * Its content is neither rendered nor loaded by a browser running scripts (noscript is raw text
 * there, template content is inert), so nothing inside it is collected.
 */
export const INERT = 8;
export const DEPRECATED = 16;

export const KIND_SHIFT = 8;
/** Element kinds the collector reads attributes of; 0 is every other element. */
export const Kind = {
  Html: 1,
  Base: 2,
  Meta: 3,
  Link: 4,
  Title: 5,
  Script: 6,
  Anchor: 7,
  Heading: 8,
  Img: 9,
  Picture: 10,
  Source: 11,
  Media: 12,
  Track: 13,
  Iframe: 14,
  Embed: 15,
  Object: 16,
  Input: 17,
  Form: 18,
  Svg: 19,
} as const;
type Kind = (typeof Kind)[keyof typeof Kind];

function buildRules(): Map<string, number> {
  const rules = new Map<string, number>();
  const add = (names: string, bits: number): void => {
    for (const name of names.split(' ')) rules.set(name, (rules.get(name) ?? 0) | bits);
  };
  add(
    'html head body address article aside blockquote br button canvas caption center dd details dialog dir div ' +
      'dl dt embed fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 header hgroup hr ' +
      'iframe img input legend li listing main marquee menu nav object ol optgroup option p pre section select ' +
      'summary table tbody td textarea tfoot th thead tr ul video audio svg math title script style noscript ' +
      'template meta link',
    BREAKS_TEXT,
  );
  add('html head title meta link base script style noscript template basefont bgsound noframes', HEAD_CONTENT);
  add('script style textarea title noscript template iframe noembed noframes', HIDES_TEXT);
  add('noscript template', INERT);
  add('acronym applet basefont big blink center dir font frame frameset isindex marquee noframes strike tt', DEPRECATED);

  const kinds: [string, Kind][] = [
    ['html', Kind.Html],
    ['base', Kind.Base],
    ['meta', Kind.Meta],
    ['link', Kind.Link],
    ['title', Kind.Title],
    ['script', Kind.Script],
    ['a', Kind.Anchor],
    ['h1', Kind.Heading],
    ['h2', Kind.Heading],
    ['h3', Kind.Heading],
    ['h4', Kind.Heading],
    ['h5', Kind.Heading],
    ['h6', Kind.Heading],
    ['img', Kind.Img],
    ['picture', Kind.Picture],
    ['source', Kind.Source],
    ['video', Kind.Media],
    ['audio', Kind.Media],
    ['track', Kind.Track],
    ['iframe', Kind.Iframe],
    ['embed', Kind.Embed],
    ['object', Kind.Object],
    ['input', Kind.Input],
    ['form', Kind.Form],
    ['svg', Kind.Svg],
  ];
  for (const [name, kind] of kinds) rules.set(name, (rules.get(name) ?? 0) | (kind << KIND_SHIFT));
  return rules;
}

export const TAG_RULES = buildRules();

// ---- Tree construction: htmlparser2's Parser rules, as numbers ----------------------------------
// PageParser replaces htmlparser2's Parser (see page-parser.ts) and must build the same tree: the same
// void elements, the same start tags that imply the end of an open element, the same foreign-content
// (svg, math) bookkeeping. These tables restate the sets of htmlparser2 10's Parser.js.

/** Never put on the open-element stack: opened and closed at once. */
export const VOID = 1;
/** svg and math: `<x/>` inside them closes the element. */
export const FOREIGN_CONTEXT = 2;
/** Elements inside foreign content whose content is HTML again. */
export const HTML_INTEGRATION = 4;

/** What PageParser needs to know about a tag name, looked up once per start or end tag. */
export interface TagInfo {
  /** The lower-case tag name ('' for the entry shared by tags without rules). */
  readonly name: string;
  /** The collector's TAG_RULES entry (0 for tags it ignores). */
  readonly rule: number;
  /** VOID, FOREIGN_CONTEXT and HTML_INTEGRATION bits. */
  readonly tree: number;
  /** This tag's bit among the tags a start tag can close implicitly (0: never closed that way). */
  readonly closeBit: number;
  /** Bits of the open elements this start tag closes while they are the current element. */
  readonly impliesClose: number;
}

const VOID_ELEMENTS =
  'area base basefont br col command embed frame hr img input isindex keygen link meta param source track wbr';
const FOREIGN_CONTEXT_ELEMENTS = 'math svg';
const HTML_INTEGRATION_ELEMENTS = 'mi mo mn ms mtext annotation-xml foreignobject desc title';
const FORM_TAGS = 'input option optgroup select button datalist textarea';
/** Start tag -> the open elements it closes (htmlparser2's openImpliesClose). */
const IMPLIES_CLOSE: [string, string][] = [
  ['tr', 'tr th td'],
  ['th', 'th'],
  ['td', 'thead th td'],
  ['body', 'head link script'],
  ['li', 'li'],
  ['p h1 h2 h3 h4 h5 h6', 'p'],
  ['select input output button datalist textarea', FORM_TAGS],
  ['option', 'option'],
  ['optgroup', 'optgroup option'],
  ['dd dt', 'dd dt'],
  [
    'address article aside blockquote details div dl fieldset figcaption figure footer form header hr main nav ol pre ' +
      'section table ul',
    'p',
  ],
  ['rt rp', 'rt rp'],
  ['tbody tfoot', 'thead tbody'],
];

/** The TagInfo of every tag without rules. */
export const NO_TAG_INFO: TagInfo = { name: '', rule: 0, tree: 0, closeBit: 0, impliesClose: 0 };

/**
 * Common tags without any rule, listed only so that their name is recognised in place instead of
 * being sliced and lower-cased at every start tag (a page has thousands of <span>s and svg <path>s).
 */
const COMMON_PLAIN_TAGS =
  'span i b u s em strong small sub sup code kbd var q abbr cite dfn mark time label ins del bdi bdo data ' +
  'path g use symbol defs rect circle ellipse line polyline polygon stop clippath lineargradient radialgradient ' +
  'mask pattern text tspan image filter';

function buildTagInfo(): Map<string, TagInfo> {
  const names = new Set<string>(TAG_RULES.keys());
  for (const name of COMMON_PLAIN_TAGS.split(' ')) names.add(name);
  const words = (list: string) => list.split(' ');
  for (const list of [VOID_ELEMENTS, FOREIGN_CONTEXT_ELEMENTS, HTML_INTEGRATION_ELEMENTS]) for (const name of words(list)) names.add(name);
  const closeBits = new Map<string, number>();
  for (const [openers, closed] of IMPLIES_CLOSE) {
    for (const name of words(openers)) names.add(name);
    for (const name of words(closed)) {
      names.add(name);
      if (!closeBits.has(name)) closeBits.set(name, 1 << closeBits.size);
    }
  }
  if (closeBits.size > 31) throw new Error('too many implicitly closed tags for a bit mask');
  const bitsOf = (list: string) => words(list).reduce((bits, name) => bits | (closeBits.get(name) ?? 0), 0);
  const info = new Map<string, TagInfo>();
  for (const name of names) {
    let tree = 0;
    if (words(VOID_ELEMENTS).includes(name)) tree |= VOID;
    if (words(FOREIGN_CONTEXT_ELEMENTS).includes(name)) tree |= FOREIGN_CONTEXT;
    if (words(HTML_INTEGRATION_ELEMENTS).includes(name)) tree |= HTML_INTEGRATION;
    const opener = IMPLIES_CLOSE.find(([openers]) => words(openers).includes(name));
    info.set(name, {
      name,
      rule: TAG_RULES.get(name) ?? 0,
      tree,
      closeBit: closeBits.get(name) ?? 0,
      impliesClose: opener === undefined ? 0 : bitsOf(opener[1]),
    });
  }
  return info;
}

const TAG_INFO = buildTagInfo();
const TAG_NAMES = new NameTable(TAG_INFO);

/** The TagInfo of a lower-case tag name; undefined for tags not listed (those have no rules). */
export function tagInfo(name: string): TagInfo | undefined {
  return TAG_INFO.get(name);
}

/** The TagInfo of the tag named `source.slice(start, end)` in any case; undefined for tags not listed. */
export function tagInfoAt(source: string, start: number, end: number): TagInfo | undefined {
  return TAG_NAMES.find(source, start, end);
}
