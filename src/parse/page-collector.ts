// The htmlparser2 handler behind parsePage: it follows the start tags, end tags and text of one
// streaming pass and fills a PageSnapshot as they go by, with no DOM.
//
// Where we are is tracked with counters and with the depth of the element that opened a region
// (`hiddenAt`, `svgAt`, `anchorDepth`, ...). That works because htmlparser2 closes elements strictly
// in reverse order of opening (it emits implied end tags), so every end tag belongs to the most
// recently opened element that is still open.
import type { Handler } from 'htmlparser2';
import { documentMode } from './doctype.ts';
import { collectEmails, mailtoAddresses, MAX_EMAILS } from './emails.ts';
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

type Attributes = Record<string, string>;

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

/** True when the text is only whitespace (a stray BOM counts as whitespace). */
function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x09 && c !== 0x0d && c !== 0x0c && c !== 0xfeff) return false;
  }
  return true;
}

export class PageCollector implements Partial<Handler> {
  /** Elements open right now. */
  depth = 0;
  private maxDepth = 0;
  private elementCount = 0;
  /** A start tag whose attributes have not ended yet; if the input stops inside it, htmlparser2 still closes it. */
  private pendingTagName: string | null = null;

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
  private readonly emails = new Map<string, string>();
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
    this.pendingTagName = name;
  }

  onopentag(name: string, attribs: Attributes, isImplied: boolean): void {
    this.pendingTagName = null;
    const depth = ++this.depth;
    if (depth > this.maxDepth) this.maxDepth = depth;
    if (!isImplied) this.elementCount++;
    this.contentSeen = true;

    const rule = TAG_RULES.get(name) ?? 0;
    if (rule & BREAKS_TEXT) this.breakText();
    if (!this.bodyStarted && (rule & HEAD_CONTENT) === 0 && this.inertDepth === 0) this.bodyStarted = true;
    if (rule & HIDES_TEXT) this.textHiddenDepth++;
    if (rule & DEPRECATED) this.deprecatedTags[name] = (this.deprecatedTags[name] ?? 0) + 1;
    const kind = rule >>> KIND_SHIFT;
    if (kind === Kind.Svg && this.svgAt === 0) this.svgAt = depth;

    const id = attribs.id;
    if (id !== undefined && id !== '') this.noteId(id);
    if (attribs.style !== undefined && this.svgAt === 0) this.inlineStyleCount++;
    if (attribs.hidden !== undefined && this.hiddenAt === 0) this.hiddenAt = depth;

    if (this.inertDepth === 0) {
      if (attribs.itemscope !== undefined && attribs.itemtype !== undefined) this.microdataTypes.push(attribs.itemtype);
      if (attribs.typeof !== undefined) this.rdfaTypes.push(attribs.typeof);
      if (kind !== 0 && this.svgAt === 0) this.openElement(kind, name, attribs, depth);
    }
    if (rule & INERT) this.inertDepth++;
  }

  onclosetag(name: string): void {
    if (this.pendingTagName !== null) {
      const cutOff = name === this.pendingTagName;
      this.pendingTagName = null;
      if (cutOff) return; // the input ended inside this start tag: it never opened
    }
    const depth = this.depth;
    if (depth === 0) return;
    this.depth = depth - 1;

    const rule = TAG_RULES.get(name) ?? 0;
    if (rule & BREAKS_TEXT) this.breakText();
    if (rule & HIDES_TEXT) this.textHiddenDepth--;
    if (rule & INERT) this.inertDepth--;
    if (this.hiddenAt === depth) this.hiddenAt = 0;
    if (this.svgAt === depth) this.svgAt = 0;
    const kind = rule >>> KIND_SHIFT;
    if (kind !== 0) this.closeElement(kind, depth);
  }

  ontext(data: string): void {
    if (this.sink !== null) {
      this.sinkText += data;
      return;
    }
    if (!this.contentSeen && !isBlank(data)) this.contentSeen = true;
    if (this.textHiddenDepth > 0 || this.hiddenAt !== 0 || this.svgAt !== 0) return;
    if (!this.bodyStarted) {
      if (isBlank(data)) return;
      this.bodyStarted = true; // text cannot be in the head: it starts the body
    }
    this.text.add(data);
    if (this.anchor !== null) this.anchorText += data;
    if (this.heading !== null) this.headingText += data;
    if (data.includes('@') && this.emails.size < MAX_EMAILS) collectEmails(data, this.emails);
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
        emails: [...this.emails.values()],
      },
      mailtoEmails: [...this.mailtoEmails.values()],
    };
  }

  private openElement(kind: number, name: string, attribs: Attributes, depth: number): void {
    switch (kind) {
      case Kind.Html:
        if (this.htmlLang === null && attribs.lang !== undefined) this.htmlLang = attribs.lang;
        break;
      case Kind.Base:
        if (this.baseHref === null && attribs.href !== undefined) this.baseHref = attribs.href;
        break;
      case Kind.Meta:
        this.metas.push({
          name: lowerOrNull(attribs.name),
          property: lowerOrNull(attribs.property),
          httpEquiv: lowerOrNull(attribs['http-equiv']),
          charset: attribs.charset ?? null,
          content: attribs.content ?? null,
          inHead: !this.bodyStarted,
        });
        break;
      case Kind.Link:
        this.openLink(attribs);
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
        this.openScript(attribs);
        break;
      case Kind.Anchor:
        this.openAnchor(attribs, depth);
        break;
      case Kind.Heading:
        this.finishHeading(); // a heading inside a heading closes the outer one, as browsers do
        this.heading = { level: (name.charCodeAt(1) - 0x30) as Heading['level'], text: '' };
        this.headings.push(this.heading);
        this.headingDepth = depth;
        this.headingText = '';
        break;
      case Kind.Img:
        this.openImg(attribs);
        break;
      case Kind.Picture:
        this.pictureDepth = depth;
        this.pictureSources = [];
        this.pictureRefsStart = this.resources.length;
        break;
      case Kind.Source:
        this.openSource(attribs);
        break;
      case Kind.Media:
        this.mediaDepth = depth;
        this.mediaDeferred = keyword(attribs.preload) === 'none';
        addResource(this.resources, name, 'src', attribs.src, this.mediaDeferred);
        addResource(this.resources, name, 'poster', attribs.poster, false); // the poster shows before play
        break;
      case Kind.Track:
        if (this.mediaDepth !== 0) addResource(this.resources, 'track', 'src', attribs.src, this.mediaDeferred);
        break;
      case Kind.Iframe:
        addResource(this.resources, 'iframe', 'src', attribs.src, keyword(attribs.loading) === 'lazy');
        break;
      case Kind.Embed:
        addResource(this.resources, 'embed', 'src', attribs.src, false);
        break;
      case Kind.Object:
        addResource(this.resources, 'object', 'data', attribs.data, false);
        break;
      case Kind.Input: {
        const type = keyword(attribs.type);
        if (type === 'image') addResource(this.resources, 'input', 'src', attribs.src, false);
        else if (type === 'password' && this.form !== null) this.form.hasPasswordField = true;
        break;
      }
      case Kind.Form:
        if (this.form === null) {
          // a <form> inside a form is ignored by browsers
          this.form = { action: attribs.action ?? null, method: keyword(attribs.method) || 'get', hasPasswordField: false };
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

  private openLink(attribs: Attributes): void {
    const rel = lowerTokens(attribs.rel);
    this.linkTags.push({
      rel,
      href: attribs.href ?? null,
      hreflang: attribs.hreflang ?? null,
      type: attribs.type ?? null,
      media: attribs.media ?? null,
      as: keyword(attribs.as),
      inHead: !this.bodyStarted,
    });
    if (rel.includes('stylesheet') || rel.includes('preload') || rel.includes('modulepreload')) {
      addResource(this.resources, 'link', 'href', attribs.href, false);
    }
  }

  private openScript(attribs: Attributes): void {
    const type = keyword(attribs.type);
    this.scripts.push({
      src: attribs.src ?? null,
      type,
      async: attribs.async !== undefined,
      defer: attribs.defer !== undefined,
      inHead: !this.bodyStarted,
    });
    addResource(this.resources, 'script', 'src', attribs.src, false);
    if (type === 'application/ld+json') {
      this.sink = 'json-ld';
      this.sinkText = '';
    }
  }

  private openAnchor(attribs: Attributes, depth: number): void {
    this.finishAnchor(); // a link inside a link closes the outer one, as browsers do
    const href = attribs.href ?? null;
    this.anchor = {
      href,
      text: '',
      rel: lowerTokens(attribs.rel),
      target: attribs.target ?? null,
      role: attribs.role ?? null,
      isNamedAnchor: attribs.id !== undefined || attribs.name !== undefined,
      hasOnclick: attribs.onclick !== undefined,
      label: attribs['aria-label'] ?? attribs.title ?? null,
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

  private openImg(attribs: Attributes): void {
    const alt = attribs.alt ?? null;
    const lazy = keyword(attribs.loading) === 'lazy';
    const image: Image = {
      src: attribs.src ?? null,
      srcset: attribs.srcset ?? null,
      alt,
      width: attribs.width ?? null,
      height: attribs.height ?? null,
      loading: attribs.loading ?? null,
      role: attribs.role ?? null,
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
    addResource(this.resources, 'img', 'src', attribs.src, lazy);
    addSrcsetResources(this.resources, 'img', attribs.srcset, lazy);
    // alt text is the image's text in a link or heading
    if (alt !== null && (this.anchor !== null || this.heading !== null) && this.isTextVisible()) {
      if (this.anchor !== null) this.anchorText += ` ${alt} `;
      if (this.heading !== null) this.headingText += ` ${alt} `;
    }
  }

  private openSource(attribs: Attributes): void {
    if (this.mediaDepth !== 0) {
      addResource(this.resources, 'source', 'src', attribs.src, this.mediaDeferred);
    } else if (this.pictureSources !== null) {
      this.pictureSources.push({ type: attribs.type ?? null, srcset: attribs.srcset ?? null });
      addSrcsetResources(this.resources, 'source', attribs.srcset, false);
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
