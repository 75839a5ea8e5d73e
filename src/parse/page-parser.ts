// The streaming HTML parser behind parsePage: htmlparser2's Tokenizer, driven by this class in place of
// htmlparser2's Parser. It builds the same element tree as Parser with the options parsePage uses (HTML
// mode, lower-case tag and attribute names, entities decoded: the rules are restated in tag-rules.ts)
// and reports it to a handler, with these differences:
//
// 1. Less work per tag. Parser looks each tag name up in four sets, keeps the open elements in an
//    array it unshifts on every start tag, and slices and lower-cases every attribute name and value.
//    Here a tag name costs one lookup (tagInfo) that the handler reuses, the open elements are a stack
//    pushed at the end, and attributes are recognised in place (attribute-names.ts): the ones the
//    handler never reads (class, data-*, ...) make no string at all.
// 2. A start-tag-end signal. Parser only says "this start tag's attributes are complete" through
//    onopentag, after building an attributes object for every tag; the handler takes attributes one by
//    one and is told when the tag ends.
// 3. Text as ranges of the flat strings the document is made of. Text pieces as strings come in
//    several V8 representations (slices of the document, short copies, decoded references), and
//    scanning such a mix with charCodeAt is about six times slower than scanning one flat string. Text
//    without character references is therefore reported as a range of the piece of the document being
//    parsed (PageText: the document comes in pieces of under 128 KiB); only decoded references, and
//    the rare text that began in an earlier piece, arrive as strings of their own.
// 4. A nesting cap. Parser's unshift and its search of the open elements on every end tag cost time in
//    proportion to the depth: 100,000 nested <div>s take seconds, a few megabytes of them minutes. Past
//    MAX_OPEN_ELEMENTS new elements are treated as void (opened and closed at once), which keeps parsing
//    linear. Chrome and Safari stop nesting at the same depth; real pages stay far below it (the corpus
//    peaks at 39).
import { Tokenizer, type TokenizerCallbacks } from 'htmlparser2';
import type { PageText } from '../fetch/page-text.ts';
import { attributeId, isValueRead } from './attribute-names.ts';
import { equalsLowered } from './name-table.ts';
import { FOREIGN_CONTEXT, HTML_INTEGRATION, NO_TAG_INFO, tagInfo, tagInfoAt, VOID, type TagInfo } from './tag-rules.ts';

export const MAX_OPEN_ELEMENTS = 512;

/** The declaration name as Parser's getInstructionName finds it: up to whitespace or "/". */
const NAME_END = /\s|\//;

export interface PageParserHandler {
  /**
   * A start tag (lower-case name, its TAG_RULES entry, the offset of its `<` in the document); its
   * attributes and onstarttagend follow.
   */
  onopentagname(name: string, rule: number, start: number): void;
  /** An attribute the handler reads (attribute-names.ts number), value entity-decoded ('' if isValueRead is false). */
  onattribute(id: number, value: string): void;
  /**
   * The current start tag's attributes are complete; `end` is the offset just past its `>`. Not called
   * for the <p> and <br> that a stray `</p>` or `</br>` stands for, nor for a start tag the document
   * ends inside.
   */
  onstarttagend(end: number): void;
  /** An element ends; `isImplied` when no end tag of its own closed it. */
  onclosetag(name: string, isImplied: boolean): void;
  /** Text `source.slice(start, end)`, with no character references in it. */
  ontextrange(source: string, start: number, end: number): void;
  /** Text decoded from a character reference. */
  ontext(data: string): void;
  /** A `<!...>` declaration (Parser's onprocessinginstruction): name `!doctype`, data `!DOCTYPE html`. */
  ondeclaration(name: string, data: string): void;
  /** Elements open right now. */
  readonly depth: number;
}

export class PageParser implements TokenizerCallbacks {
  private readonly tokenizer: Tokenizer;
  private text: PageText | null = null;
  /** The piece of the document being parsed, and its offset in the document. */
  private piece = '';
  private pieceStart = 0;
  /** The range sourceOf last found, in the string it returned. */
  private from = 0;
  private to = 0;
  /** Open elements, innermost last (Parser keeps them innermost first). */
  private readonly openNames: string[] = [];
  private readonly openInfo: TagInfo[] = [];
  /** Whether foreign content (svg, math) is current, innermost last; starts as [false] like Parser's. */
  private readonly foreignContext: boolean[] = [false];
  /** The start tag being read, and the offset of its `<` (of the `</` for an end tag standing for one). */
  private tagName = '';
  private tagStart = 0;
  private tagInfo: TagInfo = NO_TAG_INFO;
  /** True from a start tag's name to its end: that element must not go on the open-element stack. */
  private openingPastCap = false;
  /** The attribute being read (0: one the handler ignores) and its value so far. */
  private attribute = 0;
  private attributeValue = '';
  /** The handler reads the attribute's value, not only whether it is there: build it. */
  private attributeValueRead = false;

  constructor(private readonly handler: PageParserHandler) {
    this.tokenizer = new Tokenizer({ xmlMode: false, decodeEntities: true }, this);
  }

  /** Parses a whole document, a piece at a time; offsets reported are into the whole. */
  parseDocument(text: PageText): void {
    this.text = text;
    let start = 0;
    for (const piece of text.pieces) {
      this.piece = piece;
      this.pieceStart = start;
      this.tokenizer.write(piece);
      start += piece.length;
    }
    this.tokenizer.end();
  }

  /**
   * The string that holds the document's [start, end), and that range in it in `from` and `to` (read
   * them after calling: no object made per tag): the piece being parsed, or a copy when the range began
   * in an earlier piece. The tokenizer's offsets never reach past the piece it was last given.
   */
  private sourceOf(start: number, end: number): string {
    if (start >= this.pieceStart) {
      this.from = start - this.pieceStart;
      this.to = end - this.pieceStart;
      return this.piece;
    }
    const copy = (this.text as PageText).slice(start, end);
    this.from = 0;
    this.to = copy.length;
    return copy;
  }

  // ---- Tokenizer callbacks ------------------------------------------------------------------------

  ontext(start: number, endIndex: number): void {
    const source = this.sourceOf(start, endIndex);
    this.handler.ontextrange(source, this.from, this.to);
  }

  ontextentity(codePoint: number): void {
    this.handler.ontext(String.fromCodePoint(codePoint));
  }

  onopentagname(start: number, endIndex: number): void {
    this.openingPastCap = this.handler.depth >= MAX_OPEN_ELEMENTS;
    this.tagStart = start - 1;
    const source = this.sourceOf(start, endIndex);
    const known = tagInfoAt(source, this.from, this.to);
    if (known !== undefined) this.openTag(known.name, known);
    else this.openTag(source.slice(this.from, this.to).toLowerCase(), NO_TAG_INFO);
  }

  onattribname(start: number, endIndex: number): void {
    const source = this.sourceOf(start, endIndex);
    this.attribute = attributeId(source, this.from, this.to);
    this.attributeValueRead = this.attribute !== 0 && isValueRead(this.attribute);
  }

  onattribdata(start: number, endIndex: number): void {
    if (!this.attributeValueRead) return;
    const source = this.sourceOf(start, endIndex);
    this.attributeValue += source.slice(this.from, this.to);
  }

  onattribentity(codePoint: number): void {
    if (this.attributeValueRead) this.attributeValue += String.fromCodePoint(codePoint);
  }

  onattribend(): void {
    if (this.attribute === 0) return;
    this.handler.onattribute(this.attribute, this.attributeValue);
    this.attribute = 0;
    this.attributeValue = '';
  }

  onopentagend(endIndex: number): void {
    this.handler.onstarttagend(endIndex + 1);
    this.endStartTag();
    this.openingPastCap = false;
  }

  onselfclosingtag(endIndex: number): void {
    this.handler.onstarttagend(endIndex + 1);
    // HTML ignores the "/" of `<x/>` except in foreign content, where it closes the element.
    if (this.foreignContext[this.foreignContext.length - 1]) this.closeCurrentTag(false);
    else this.endStartTag();
    this.openingPastCap = false;
  }

  onclosetag(start: number, endIndex: number): void {
    let name: string;
    let info: TagInfo;
    const innermost = this.openNames.length - 1;
    const source = this.sourceOf(start, endIndex);
    if (innermost >= 0 && equalsLowered(source, this.from, this.to, this.openNames[innermost])) {
      // most end tags close the current element: no need to read the name
      name = this.openNames[innermost];
      info = this.openInfo[innermost];
    } else {
      const known = tagInfoAt(source, this.from, this.to);
      name = known !== undefined ? known.name : source.slice(this.from, this.to).toLowerCase();
      info = known ?? NO_TAG_INFO;
    }
    if (info.tree & (FOREIGN_CONTEXT | HTML_INTEGRATION)) this.foreignContext.pop();
    if (!this.isVoid(info)) {
      const names = this.openNames;
      const at = names.lastIndexOf(name);
      if (at !== -1) {
        for (let index = names.length - 1; index >= at; index--) {
          const element = names.pop() as string;
          this.openInfo.pop();
          this.handler.onclosetag(element, index !== at);
        }
      } else if (name === 'p') {
        // `</p>` without an open <p> makes an empty paragraph, as in browsers
        this.tagStart = start - 2;
        this.openTag('p', tagInfo('p') as TagInfo);
        this.closeCurrentTag(true);
      }
    } else if (name === 'br') {
      // `</br>` is a <br>
      this.handler.onopentagname('br', info.rule, start - 2);
      this.handler.onclosetag('br', false);
    }
  }

  ondeclaration(start: number, endIndex: number): void {
    const value = (this.text as PageText).slice(start, endIndex);
    const nameEnd = value.search(NAME_END);
    const name = (nameEnd < 0 ? value : value.slice(0, nameEnd)).toLowerCase();
    this.handler.ondeclaration(`!${name}`, `!${value}`);
  }

  onprocessinginstruction(): void {}

  oncomment(): void {}

  oncdata(): void {}

  onend(): void {
    const names = this.openNames;
    for (let index = names.length - 1; index >= 0; index--) this.handler.onclosetag(names[index], true);
  }

  // ---- Parser's tree construction -----------------------------------------------------------------

  private isVoid(info: TagInfo): boolean {
    return this.openingPastCap || (info.tree & VOID) !== 0;
  }

  /** Parser's emitOpenTag: close what the tag implies, push it unless void, tell the handler. */
  private openTag(name: string, info: TagInfo): void {
    this.tagName = name;
    this.tagInfo = info;
    const closes = info.impliesClose;
    if (closes !== 0) {
      const names = this.openNames;
      const infos = this.openInfo;
      while (names.length > 0 && (infos[infos.length - 1].closeBit & closes) !== 0) {
        infos.pop();
        this.handler.onclosetag(names.pop() as string, true);
      }
    }
    if (!this.isVoid(info)) {
      this.openNames.push(name);
      this.openInfo.push(info);
      if (info.tree & FOREIGN_CONTEXT) this.foreignContext.push(true);
      else if (info.tree & HTML_INTEGRATION) this.foreignContext.push(false);
    }
    this.handler.onopentagname(name, info.rule, this.tagStart);
  }

  /** Parser's endOpenTag: a void element ends with its start tag. */
  private endStartTag(): void {
    if (this.isVoid(this.tagInfo)) this.handler.onclosetag(this.tagName, true);
    this.tagName = '';
    this.tagInfo = NO_TAG_INFO;
  }

  /** Parser's closeCurrentTag: `<x/>` in foreign content, or the empty <p> of a stray `</p>`. */
  private closeCurrentTag(isOpenImplied: boolean): void {
    const name = this.tagName;
    this.endStartTag();
    const names = this.openNames;
    if (names[names.length - 1] === name) {
      this.handler.onclosetag(name, !isOpenImplied);
      names.pop();
      this.openInfo.pop();
    }
  }
}
