// What the parser needs to know about a tag name, packed into one number so a start tag costs a
// single Map lookup (its end tag reuses the number): trait bits in the low byte, the element kind
// (for tags whose attributes are collected) above it.

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
