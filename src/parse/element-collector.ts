// The snapshot's lists of elements (metas, links, headings, anchors, images, scripts, resources,
// forms, JSON-LD, titles), filled from the start and end tags PageCollector passes on. Elements
// that contain text (title, JSON-LD script, headings, links) also take the text PageCollector routes
// to them while they are open.
import { mailtoAddresses, MAX_EMAILS } from './emails.ts';
import { LINK_ONLY_ATTRIBUTES, type LinkOnlyAttribute } from './page-snapshot.ts';
import type {
  Anchor,
  Form,
  Heading,
  Image,
  JsonLdBlock,
  LinkTag,
  MetaTag,
  PageSnapshot,
  PictureSource,
  ResourceRef,
  Script,
} from './page-snapshot.ts';
import { addResource, addSrcsetResources } from './resource-refs.ts';
import type { StartTagAttributes } from './start-tag-attributes.ts';
import type { JsonLdPlace } from '../structured/json-ld-items.ts';
import { Kind } from './tag-rules.ts';
import { CollapsedText, isAsciiWhitespace } from './whitespace.ts';

/**
 * The empty list, shared (and frozen) by the many elements without the attribute: most links have no
 * rel, most images no <picture>. One list per element would be kept alive with the snapshot.
 */
const NONE: never[] = Object.freeze([]) as never[];

/** Space-separated tokens, lower-case (rel): the HTML standard's "split on ASCII whitespace". */
function lowerTokens(value: string | undefined): string[] {
  if (value === undefined) return NONE;
  const lower = value.toLowerCase();
  const tokens: string[] = [];
  let i = 0;
  while (i < lower.length) {
    while (i < lower.length && isAsciiWhitespace(lower.charCodeAt(i))) i++;
    const start = i;
    while (i < lower.length && !isAsciiWhitespace(lower.charCodeAt(i))) i++;
    if (i > start) tokens.push(lower.slice(start, i));
  }
  return tokens;
}

function lowerOrNull(value: string | undefined): string | null {
  return value === undefined ? null : value.toLowerCase();
}

/** Keyword attributes (type, as, method, loading, preload) compare trimmed and case-insensitively. */
function keyword(value: string | undefined): string | null {
  return value === undefined ? null : value.trim().toLowerCase();
}

/** Where a start tag is in the document, and whether it is hidden (see ElementCollector.open). */
export interface ElementPlace {
  start: number;
  end: number;
  hidden: boolean;
}

/** The link-only attributes an `<a>` carries (NONE, shared, for the many that carry none). */
function linkOnlyAttributes(attrs: StartTagAttributes): LinkOnlyAttribute[] {
  let found: LinkOnlyAttribute[] = NONE;
  for (const name of LINK_ONLY_ATTRIBUTES) {
    if (attrs[name] === undefined) continue;
    if (found === NONE) found = [];
    found.push(name);
  }
  return found;
}

export type ElementLists = Pick<
  PageSnapshot,
  | 'htmlLang'
  | 'baseHref'
  | 'titles'
  | 'titlesOutsideHead'
  | 'metas'
  | 'linkTags'
  | 'headings'
  | 'anchors'
  | 'images'
  | 'scripts'
  | 'resources'
  | 'forms'
  | 'jsonLd'
  | 'mailtoEmails'
> & {
  /** Where each of `jsonLd` is in the page, for the structured-data extraction. */
  jsonLdPlaces: JsonLdPlace[];
};

export class ElementCollector {
  private htmlLang: string | null = null;
  private baseHref: string | null = null;
  private readonly titles: string[] = [];
  private titlesOutsideHead = 0;
  private readonly metas: MetaTag[] = [];
  private readonly linkTags: LinkTag[] = [];
  private readonly headings: Heading[] = [];
  private readonly anchors: Anchor[] = [];
  private readonly images: Image[] = [];
  private readonly scripts: Script[] = [];
  private readonly resources: ResourceRef[] = [];
  private readonly forms: Form[] = [];
  private readonly jsonLd: JsonLdBlock[] = [];
  private readonly jsonLdPlaces: JsonLdPlace[] = [];
  /** The open JSON-LD script's start tag: where it starts and ends. */
  private jsonLdTag: ElementPlace | null = null;
  private readonly mailtoEmails = new Map<string, string>();

  /** The raw-text element whose text is kept: a head <title> or a JSON-LD <script>. */
  private rawTextOf: 'title' | 'json-ld' | null = null;
  private rawText = '';
  // The open link, heading, form, picture and media element, each with its depth so that its own
  // end tag is recognised.
  private anchor: Anchor | null = null;
  private anchorDepth = 0;
  private readonly anchorText = new CollapsedText();
  private heading: Heading | null = null;
  private headingDepth = 0;
  private readonly headingText = new CollapsedText();
  private form: Form | null = null;
  private formDepth = 0;
  private pictureDepth = 0;
  /** The <source>s of the open <picture>; null once its <img> came (later sources are ignored). */
  private pictureSources: PictureSource[] | null = null;
  /** Index in `resources` of the open picture's first ref, so a lazy <img> can mark them deferred. */
  private pictureRefsStart = 0;
  private mediaDepth = 0;
  private mediaDeferred = false;

  /** True while a head <title> or JSON-LD <script> is open: all text goes to addRawText. */
  get keepsRawText(): boolean {
    return this.rawTextOf !== null;
  }

  /** True while a link or heading is open: visible text should go to addVisibleText. */
  get collectsText(): boolean {
    return this.anchor !== null || this.heading !== null;
  }

  addRawText(text: string): void {
    this.rawText += text;
  }

  /** Visible text `source.slice(start, end)`. */
  addVisibleText(source: string, start: number, end: number): void {
    if (this.anchor !== null) this.anchorText.add(source, start, end);
    if (this.heading !== null) this.headingText.add(source, start, end);
  }

  /** A block boundary inside link or heading text. */
  addBreak(): void {
    if (this.anchor !== null) this.anchorText.addSpace();
    if (this.heading !== null) this.headingText.addSpace();
  }

  /**
   * A start tag of one of the kinds in tag-rules. `inHead`: before the body started; `textVisible`:
   * text here would be shown (an img alt counts as link or heading text only then); `at`: where the
   * tag is, and whether a `hidden` attribute or inline `display:none` on it or an ancestor hides it.
   */
  open(
    kind: number,
    name: string,
    attrs: StartTagAttributes,
    depth: number,
    inHead: boolean,
    textVisible: boolean,
    at: ElementPlace,
  ): void {
    switch (kind) {
      case Kind.Html:
        if (this.htmlLang === null && attrs.lang !== undefined) this.htmlLang = attrs.lang;
        break;
      case Kind.Base:
        if (this.baseHref === null && attrs.href !== undefined) this.baseHref = attrs.href;
        break;
      case Kind.Meta:
        this.metas.push({
          name: lowerOrNull(attrs.name),
          property: lowerOrNull(attrs.property),
          httpEquiv: lowerOrNull(attrs.httpEquiv),
          charset: attrs.charset ?? null,
          content: attrs.content ?? null,
          inHead,
        });
        break;
      case Kind.Link:
        this.openLink(attrs, inHead);
        break;
      case Kind.Title:
        if (inHead) this.keepRawText('title');
        else this.titlesOutsideHead++;
        break;
      case Kind.Script:
        this.openScript(attrs, inHead, at);
        break;
      case Kind.Anchor:
        this.openAnchor(attrs, depth, at);
        break;
      case Kind.Heading:
        this.finishHeading(); // a heading inside a heading closes the outer one, as browsers do
        this.heading = { level: (name.charCodeAt(1) - 0x30) as Heading['level'], text: '', tagStart: at.start, tagEnd: at.end };
        this.headings.push(this.heading);
        this.headingDepth = depth;
        break;
      case Kind.Img:
        this.openImg(attrs, textVisible, at);
        break;
      case Kind.Picture:
        this.pictureDepth = depth;
        this.pictureSources = [];
        this.pictureRefsStart = this.resources.length;
        break;
      case Kind.Source:
        this.openSource(attrs);
        break;
      case Kind.Media:
        this.mediaDepth = depth;
        this.mediaDeferred = keyword(attrs.preload) === 'none';
        addResource(this.resources, name, 'src', attrs.src, this.mediaDeferred);
        addResource(this.resources, name, 'poster', attrs.poster, false); // the poster shows before play
        break;
      case Kind.Track:
        if (this.mediaDepth !== 0) addResource(this.resources, 'track', 'src', attrs.src, this.mediaDeferred);
        break;
      case Kind.Iframe:
        addResource(this.resources, 'iframe', 'src', attrs.src, keyword(attrs.loading) === 'lazy');
        break;
      case Kind.Embed:
        addResource(this.resources, 'embed', 'src', attrs.src, false);
        break;
      case Kind.Object:
        addResource(this.resources, 'object', 'data', attrs.data, false);
        break;
      case Kind.Input: {
        const type = keyword(attrs.type);
        if (type === 'image') addResource(this.resources, 'input', 'src', attrs.src, false);
        else if (type === 'password' && this.form !== null) this.form.hasPasswordField = true;
        break;
      }
      case Kind.Form:
        if (this.form === null) {
          // a <form> inside a form is ignored by browsers
          this.form = {
            action: attrs.action ?? null,
            method: keyword(attrs.method) || 'get',
            hasPasswordField: false,
            tagStart: at.start,
            tagEnd: at.end,
          };
          this.forms.push(this.form);
          this.formDepth = depth;
        }
        break;
    }
  }

  /** The end tag of an element of `kind` that was opened at `depth`. */
  close(kind: number, depth: number): void {
    switch (kind) {
      case Kind.Title:
        if (this.rawTextOf === 'title') this.titles.push(this.takeRawText());
        break;
      case Kind.Script:
        if (this.rawTextOf === 'json-ld') this.finishJsonLd();
        break;
      case Kind.Anchor:
        if (this.anchorDepth === depth) this.finishAnchor();
        break;
      case Kind.Heading:
        if (this.headingDepth === depth) this.finishHeading();
        break;
      case Kind.Picture:
        if (this.pictureDepth === depth) {
          this.pictureDepth = 0;
          this.pictureSources = null;
        }
        break;
      case Kind.Media:
        if (this.mediaDepth === depth) this.mediaDepth = 0;
        break;
      case Kind.Form:
        if (this.formDepth === depth) this.form = null;
        break;
    }
  }

  /** The lists, once the document has ended. */
  finish(): ElementLists {
    this.finishAnchor();
    this.finishHeading();
    return {
      htmlLang: this.htmlLang,
      baseHref: this.baseHref,
      titles: this.titles,
      titlesOutsideHead: this.titlesOutsideHead,
      metas: this.metas,
      linkTags: this.linkTags,
      headings: this.headings,
      anchors: this.anchors,
      images: this.images,
      scripts: this.scripts,
      resources: this.resources,
      forms: this.forms,
      jsonLd: this.jsonLd,
      jsonLdPlaces: this.jsonLdPlaces,
      mailtoEmails: [...this.mailtoEmails.values()],
    };
  }

  private keepRawText(of: 'title' | 'json-ld'): void {
    this.rawTextOf = of;
    this.rawText = '';
  }

  private takeRawText(): string {
    const text = this.rawText;
    this.rawTextOf = null;
    this.rawText = '';
    return text;
  }

  private openLink(attrs: StartTagAttributes, inHead: boolean): void {
    const rel = lowerTokens(attrs.rel);
    this.linkTags.push({
      rel,
      href: attrs.href ?? null,
      hreflang: attrs.hreflang ?? null,
      type: attrs.type ?? null,
      media: attrs.media ?? null,
      as: keyword(attrs.as),
      inHead,
    });
    if (rel.includes('stylesheet') || rel.includes('preload') || rel.includes('modulepreload')) {
      addResource(this.resources, 'link', 'href', attrs.href, false);
    }
  }

  private openScript(attrs: StartTagAttributes, inHead: boolean, at: ElementPlace): void {
    const type = keyword(attrs.type);
    this.scripts.push({
      src: attrs.src ?? null,
      type,
      async: attrs.async !== undefined,
      defer: attrs.defer !== undefined,
      inHead,
      tagStart: at.start,
      tagEnd: at.end,
    });
    addResource(this.resources, 'script', 'src', attrs.src, false);
    if (type === 'application/ld+json') {
      this.keepRawText('json-ld');
      this.jsonLdTag = at;
    }
  }

  /** A script's text is raw text, the page's characters as they are: the trimmed text starts past the leading whitespace. */
  private finishJsonLd(): void {
    const text = this.takeRawText();
    const raw = text.trim();
    this.jsonLd.push({ raw });
    const tag = this.jsonLdTag as ElementPlace;
    this.jsonLdPlaces.push({ tagStart: tag.start, textStart: tag.end + (text.length - text.trimStart().length) });
    this.jsonLdTag = null;
  }

  private openAnchor(attrs: StartTagAttributes, depth: number, at: ElementPlace): void {
    this.finishAnchor(); // a link inside a link closes the outer one, as browsers do
    const href = attrs.href ?? null;
    this.anchor = {
      href,
      text: '',
      rel: lowerTokens(attrs.rel),
      target: attrs.target ?? null,
      role: attrs.role ?? null,
      isNamedAnchor: attrs.id !== undefined || attrs.name !== undefined,
      hasOnclick: attrs.onclick !== undefined,
      label: attrs.ariaLabel ?? attrs.title ?? null,
      linkOnlyAttributes: linkOnlyAttributes(attrs),
      tagStart: at.start,
      tagEnd: at.end,
    };
    this.anchors.push(this.anchor);
    this.anchorDepth = depth;
    if (href === null) return;
    for (const address of mailtoAddresses(href)) {
      const key = address.toLowerCase();
      if (!this.mailtoEmails.has(key) && this.mailtoEmails.size < MAX_EMAILS) this.mailtoEmails.set(key, address);
    }
  }

  private openImg(attrs: StartTagAttributes, textVisible: boolean, at: ElementPlace): void {
    const alt = attrs.alt ?? null;
    const lazy = keyword(attrs.loading) === 'lazy';
    const image: Image = {
      src: attrs.src ?? null,
      srcset: attrs.srcset ?? null,
      alt,
      width: attrs.width ?? null,
      height: attrs.height ?? null,
      loading: attrs.loading ?? null,
      role: attrs.role ?? null,
      pictureSources: NONE,
      hidden: at.hidden,
      tagStart: at.start,
      tagEnd: at.end,
    };
    this.images.push(image);
    if (this.pictureSources !== null) {
      image.pictureSources = this.pictureSources;
      this.pictureSources = null;
      if (lazy) {
        for (let i = this.pictureRefsStart; i < this.resources.length; i++) this.resources[i].deferred = true;
      }
    }
    addResource(this.resources, 'img', 'src', attrs.src, lazy);
    addSrcsetResources(this.resources, 'img', attrs.srcset, lazy);
    if (alt !== null && textVisible) {
      // alt text is the image's text in a link or heading, a word apart from the text around it
      this.addBreak();
      this.addVisibleText(alt, 0, alt.length);
      this.addBreak();
    }
  }

  private openSource(attrs: StartTagAttributes): void {
    if (this.mediaDepth !== 0) {
      addResource(this.resources, 'source', 'src', attrs.src, this.mediaDeferred);
    } else if (this.pictureSources !== null) {
      this.pictureSources.push({ type: attrs.type ?? null, srcset: attrs.srcset ?? null });
      addSrcsetResources(this.resources, 'source', attrs.srcset, false);
    }
  }

  private finishAnchor(): void {
    if (this.anchor === null) return;
    this.anchor.text = this.anchorText.take();
    this.anchor = null;
  }

  private finishHeading(): void {
    if (this.heading === null) return;
    this.heading.text = this.headingText.take();
    this.heading = null;
  }
}
