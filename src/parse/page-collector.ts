// The htmlparser2 handler behind parsePage: it follows the start tags, end tags and text of one
// streaming pass and fills a PageSnapshot as they go by, with no DOM.
//
// Where we are is tracked with counters and with the depth of the element that opened a region
// (`hiddenAt`, `svgAt`, `anchorDepth`, ...). That works because htmlparser2 closes elements strictly
// in reverse order of opening (it emits implied end tags), so every end tag belongs to the most
// recently opened element that is still open.
import { documentMode } from './doctype.ts';
import { mailtoAddresses, MAX_EMAILS } from './emails.ts';
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
import type { PageParserHandler } from './page-parser.ts';
import { MAX_OPEN_ELEMENTS } from './page-parser.ts';
import { addResource, addSrcsetResources } from './resource-refs.ts';
import { StartTagAttributes } from './start-tag-attributes.ts';
import {
  BREAKS_TEXT,
  DEPRECATED,
  HEAD_CONTENT,
  HIDES_TEXT,
  INERT,
  Kind,
  KIND_SHIFT,
  TAG_RULES,
} from './tag-rules.ts';
import { TextStatistics } from './text-statistics.ts';
import { resolveUrl } from './url.ts';

/** Duplicate ids listed for diagnostics. */
const MAX_DUPLICATE_IDS = 50;

const WHITESPACE_RUN = /\s+/g;
const ASCII_WHITESPACE = /[\t\n\f\r ]+/;

function collapseWhitespace(text: string): string {
  return text.replace(WHITESPACE_RUN, ' ').trim();
}

/** Space-separated tokens, lower-case (rel). */
function lowerTokens(value: string | undefined): string[] {
  if (value === undefined) return [];
  return value
    .toLowerCase()
    .split(ASCII_WHITESPACE)
    .filter((token) => token !== '');
}

function lowerOrNull(value: string | undefined): string | null {
  return value === undefined ? null : value.toLowerCase();
}

/** Keyword attributes (type, as, method, loading, preload) compare trimmed and case-insensitively. */
function keyword(value: string | undefined): string | null {
  return value === undefined ? null : value.trim().toLowerCase();
}

/** True when `source.slice(start, end)` is only whitespace (a stray BOM counts as whitespace). */
function isBlank(source: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = source.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x09 && c !== 0x0d && c !== 0x0c && c !== 0xfeff) return false;
  }
  return true;
}

export class PageCollector implements PageParserHandler {
  constructor(private readonly html: string) {}

  /** Elements open right now. */
  depth = 0;
  private maxDepth = 0;
  private elementCount = 0;
  /** The start tag being read: its name, its TAG_RULES entry and its attributes so far. */
  private startTagPending = false;
  private tagName = '';
  private tagRule = 0;
  private readonly attrs = new StartTagAttributes();
  /** TAG_RULES entry of each open element by depth, so an end tag needs no lookup. */
  private readonly openRules = new Int32Array(MAX_OPEN_ELEMENTS + 2);

  private doctypeRaw: string | null = null;
  private standardsMode = false;
  /** A start tag or text came before any doctype, so a later doctype cannot set the mode. */
  private contentSeen = false;

  private bodyStarted = false;
  private textHiddenDepth = 0;
  private inertDepth = 0;
  /** Depth of the outermost open element with a `hidden` attribute (0: none). */
  private hiddenAt = 0;
  /** Depth of the outermost open <svg> (0: none). */
  private svgAt = 0;

  /** The raw-text element whose text we keep: a head <title> or a JSON-LD <script>. */
  private sink: 'title' | 'json-ld' | null = null;
  private sinkText = '';

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
  private readonly microdataTypes: string[] = [];
  private readonly rdfaTypes: string[] = [];
  private inlineStyleCount = 0;
  private readonly deprecatedTags: Record<string, number> = {};
  private readonly seenIds = new Set<string>();
  private readonly duplicateIds = new Set<string>();
  private readonly text = new TextStatistics();
  private readonly mailtoEmails = new Map<string, string>();

  private anchor: Anchor | null = null;
  private anchorDepth = 0;
  private anchorText = '';
  private heading: Heading | null = null;
  private headingDepth = 0;
  private headingText = '';
  private form: Form | null = null;
  private formDepth = 0;
  private pictureDepth = 0;
  /** The <source>s of the open <picture>; null once its <img> came (later sources are ignored). */
  private pictureSources: PictureSource[] | null = null;
  /** Index in `resources` of the open picture's first ref, so a lazy <img> can mark them deferred. */
  private pictureRefsStart = 0;
  private mediaDepth = 0;
  private mediaDeferred = false;

  onprocessinginstruction(name: string, data: string): void {
    if (this.doctypeRaw !== null || !name.startsWith('!doctype')) return;
    this.doctypeRaw = data;
    this.standardsMode = !this.contentSeen && documentMode(data) === 'no-quirks';
  }

  onopentagname(name: string): void {
    this.startTagPending = true;
    this.tagName = name;
    this.tagRule = TAG_RULES.get(name) ?? 0;
    this.attrs.clear();
  }

  onattribute(name: string, value: string): void {
    this.attrs.set(name, value);
  }

  onstarttagend(): void {
    if (!this.startTagPending) return;
    this.startTagPending = false;
    this.openElement(false);
  }

  onclosetag(name: string, isImplied: boolean): void {
    if (this.startTagPending) {
      this.startTagPending = false;
      // The start tag never ended: either the input stopped inside it (htmlparser2 then "closes" it,
      // implied) or htmlparser2 made it up for a stray </p> or </br> and closes it at once.
      if (isImplied) return;
      this.openElement(true);
    }
    const depth = this.depth;
    if (depth === 0) return;
    this.depth = depth - 1;

    const rule = depth < this.openRules.length ? this.openRules[depth] : (TAG_RULES.get(name) ?? 0);
    if (rule & BREAKS_TEXT) this.breakText();
    if (rule & HIDES_TEXT) this.textHiddenDepth--;
    if (rule & INERT) this.inertDepth--;
    if (this.hiddenAt === depth) this.hiddenAt = 0;
    if (this.svgAt === depth) this.svgAt = 0;
    const kind = rule >>> KIND_SHIFT;
    if (kind !== 0) this.closeElement(kind, depth);
  }

  ontextrange(start: number, end: number): void {
    this.addText(this.html, start, end);
  }

  /** Text decoded from a character reference. */
  ontext(data: string): void {
    this.addText(data, 0, data.length);
  }

  /** Builds the snapshot once the parser has ended. */
  snapshot(htmlLength: number, finalUrl: string): PageSnapshot {
    this.text.finish();
    this.finishAnchor();
    this.finishHeading();
    return {
      htmlLength,
      doctype: { raw: this.doctypeRaw, standardsMode: this.standardsMode },
      htmlLang: this.htmlLang,
      baseHref: this.baseHref,
      baseUrl: this.baseUrl(finalUrl),
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
      microdataTypes: this.microdataTypes,
      rdfaTypes: this.rdfaTypes,
      inlineStyleCount: this.inlineStyleCount,
      deprecatedTags: this.deprecatedTags,
      elementCount: this.elementCount,
      maxDepth: this.maxDepth,
      duplicateIds: [...this.duplicateIds],
      text: {
        wordCount: this.text.wordCount,
        charCount: this.text.charCount,
        words: this.text.words,
        emails: [...this.text.emails.values()],
      },
      mailtoEmails: [...this.mailtoEmails.values()],
    };
  }

  private openElement(implied: boolean): void {
    const name = this.tagName;
    const rule = this.tagRule;
    const attrs = this.attrs;
    const depth = ++this.depth;
    if (depth < this.openRules.length) this.openRules[depth] = rule;
    if (depth > this.maxDepth) this.maxDepth = depth;
    if (!implied) this.elementCount++;
    this.contentSeen = true;

    if (rule & BREAKS_TEXT) this.breakText();
    if (!this.bodyStarted && (rule & HEAD_CONTENT) === 0 && this.inertDepth === 0) this.bodyStarted = true;
    if (rule & HIDES_TEXT) this.textHiddenDepth++;
    if (rule & DEPRECATED) this.deprecatedTags[name] = (this.deprecatedTags[name] ?? 0) + 1;
    const kind = rule >>> KIND_SHIFT;
    if (kind === Kind.Svg && this.svgAt === 0) this.svgAt = depth;

    const id = attrs.id;
    if (id !== undefined && id !== '') this.noteId(id);
    if (attrs.style !== undefined && this.svgAt === 0) this.inlineStyleCount++;
    if (attrs.hidden !== undefined && this.hiddenAt === 0) this.hiddenAt = depth;

    if (this.inertDepth === 0) {
      if (attrs.itemscope !== undefined && attrs.itemtype !== undefined) this.microdataTypes.push(attrs.itemtype);
      if (attrs.typeof !== undefined) this.rdfaTypes.push(attrs.typeof);
      if (kind !== 0 && this.svgAt === 0) this.collect(kind, name, attrs, depth);
    }
    if (rule & INERT) this.inertDepth++;
  }

  /** Reads the elements that feed the snapshot's lists. */
  private collect(kind: number, name: string, attrs: StartTagAttributes, depth: number): void {
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
          inHead: !this.bodyStarted,
        });
        break;
      case Kind.Link:
        this.openLink(attrs);
        break;
      case Kind.Title:
        if (this.bodyStarted) {
          this.titlesOutsideHead++;
        } else {
          this.sink = 'title';
          this.sinkText = '';
        }
        break;
      case Kind.Script:
        this.openScript(attrs);
        break;
      case Kind.Anchor:
        this.openAnchor(attrs, depth);
        break;
      case Kind.Heading:
        this.finishHeading(); // a heading inside a heading closes the outer one, as browsers do
        this.heading = { level: (name.charCodeAt(1) - 0x30) as Heading['level'], text: '' };
        this.headings.push(this.heading);
        this.headingDepth = depth;
        this.headingText = '';
        break;
      case Kind.Img:
        this.openImg(attrs);
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
          this.form = { action: attrs.action ?? null, method: keyword(attrs.method) || 'get', hasPasswordField: false };
          this.forms.push(this.form);
          this.formDepth = depth;
        }
        break;
    }
  }

  private closeElement(kind: number, depth: number): void {
    switch (kind) {
      case Kind.Title:
        if (this.sink === 'title') {
          this.titles.push(this.sinkText);
          this.sink = null;
        }
        break;
      case Kind.Script:
        if (this.sink === 'json-ld') {
          this.jsonLd.push({ raw: this.sinkText.trim() });
          this.sink = null;
        }
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

  private openLink(attrs: StartTagAttributes): void {
    const rel = lowerTokens(attrs.rel);
    this.linkTags.push({
      rel,
      href: attrs.href ?? null,
      hreflang: attrs.hreflang ?? null,
      type: attrs.type ?? null,
      media: attrs.media ?? null,
      as: keyword(attrs.as),
      inHead: !this.bodyStarted,
    });
    if (rel.includes('stylesheet') || rel.includes('preload') || rel.includes('modulepreload')) {
      addResource(this.resources, 'link', 'href', attrs.href, false);
    }
  }

  private openScript(attrs: StartTagAttributes): void {
    const type = keyword(attrs.type);
    this.scripts.push({
      src: attrs.src ?? null,
      type,
      async: attrs.async !== undefined,
      defer: attrs.defer !== undefined,
      inHead: !this.bodyStarted,
    });
    addResource(this.resources, 'script', 'src', attrs.src, false);
    if (type === 'application/ld+json') {
      this.sink = 'json-ld';
      this.sinkText = '';
    }
  }

  private openAnchor(attrs: StartTagAttributes, depth: number): void {
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
    };
    this.anchors.push(this.anchor);
    this.anchorDepth = depth;
    this.anchorText = '';
    if (href !== null && this.mailtoEmails.size < MAX_EMAILS) {
      for (const address of mailtoAddresses(href)) {
        const key = address.toLowerCase();
        if (!this.mailtoEmails.has(key) && this.mailtoEmails.size < MAX_EMAILS) this.mailtoEmails.set(key, address);
      }
    }
  }

  private openImg(attrs: StartTagAttributes): void {
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
      pictureSources: [],
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
    // alt text is the image's text in a link or heading
    if (alt !== null && (this.anchor !== null || this.heading !== null) && this.isTextVisible()) {
      if (this.anchor !== null) this.anchorText += ` ${alt} `;
      if (this.heading !== null) this.headingText += ` ${alt} `;
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
    this.anchor.text = collapseWhitespace(this.anchorText);
    this.anchor = null;
    this.anchorText = '';
  }

  private finishHeading(): void {
    if (this.heading === null) return;
    this.heading.text = collapseWhitespace(this.headingText);
    this.heading = null;
    this.headingText = '';
  }

  private isTextVisible(): boolean {
    return this.textHiddenDepth === 0 && this.hiddenAt === 0 && this.svgAt === 0;
  }

  /** Text `source.slice(start, end)`: kept for a title or JSON-LD, or counted when visible. */
  private addText(source: string, start: number, end: number): void {
    if (this.sink !== null) {
      this.sinkText += source.slice(start, end);
      return;
    }
    if (!this.contentSeen && !isBlank(source, start, end)) this.contentSeen = true;
    if (this.textHiddenDepth > 0 || this.hiddenAt !== 0 || this.svgAt !== 0) return;
    if (!this.bodyStarted) {
      if (isBlank(source, start, end)) return;
      this.bodyStarted = true; // text cannot be in the head: it starts the body
    }
    this.text.add(source, start, end);
    if (this.anchor !== null) this.anchorText += source.slice(start, end);
    if (this.heading !== null) this.headingText += source.slice(start, end);
  }

  /** A block boundary: ends the current word and separates link and heading text. */
  private breakText(): void {
    this.text.addBreak();
    if (this.anchor !== null) this.anchorText += ' ';
    if (this.heading !== null) this.headingText += ' ';
  }

  private noteId(id: string): void {
    if (!this.seenIds.has(id)) this.seenIds.add(id);
    else if (this.duplicateIds.size < MAX_DUPLICATE_IDS) this.duplicateIds.add(id);
  }

  private baseUrl(finalUrl: string): string {
    if (this.baseHref === null) return finalUrl;
    const resolved = resolveUrl(this.baseHref, finalUrl);
    // the HTML standard falls back to the document URL for data: and javascript: bases
    if (resolved === null || resolved.protocol === 'data:' || resolved.protocol === 'javascript:') return finalUrl;
    return resolved.href;
  }
}
