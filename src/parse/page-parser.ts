// htmlparser2's Parser with three changes parsePage needs.
//
// 1. A start-tag-end signal. htmlparser2 only reports "this start tag's attributes are complete"
//    through onopentag, and only after building an attributes object for every tag, which costs more
//    than everything else parsePage does per tag. The handler takes attributes through onattribute
//    instead and is told here when the tag ends.
// 2. Text as offsets into the document. Text pieces as strings come in several V8 representations
//    (slices of the document, short copies, decoded references), and scanning such a mix with
//    charCodeAt is about six times slower than scanning the one flat document string. Text without
//    character references is therefore reported as a range of the document; only decoded
//    references arrive as strings (through ontext).
// 3. A nesting cap. htmlparser2 keeps open elements in an array it unshifts on every start tag and
//    searches on every end tag, so each tag costs time in proportion to the depth: 100,000 nested
//    <div>s take seconds, a few megabytes of them minutes. Past MAX_OPEN_ELEMENTS new elements are
//    treated as void (opened and closed at once), which keeps parsing linear. Chrome and Safari stop
//    nesting at the same depth; real pages stay far below it (the corpus peaks at 39).
import { Parser, type Handler, type ParserOptions } from 'htmlparser2';

export const MAX_OPEN_ELEMENTS = 512;

export interface PageParserHandler extends Partial<Handler> {
  /** The current start tag's attributes are complete. May be called twice for one tag. */
  onstarttagend(): void;
  /** Text `html.slice(start, end)` of the document, with no character references in it. */
  ontextrange(start: number, end: number): void;
  /** Elements open right now. */
  readonly depth: number;
}

export class PageParser extends Parser {
  /** True from a start tag's name to its end: that element must not go on the open-element stack. */
  private openingPastCap = false;

  constructor(
    private readonly handler: PageParserHandler,
    options: ParserOptions,
  ) {
    super(handler, options);
  }

  /** Parses a whole document; it must come in one piece, as text is reported as offsets into it. */
  parseDocument(html: string): void {
    this.end(html);
  }

  override ontext(start: number, endIndex: number): void {
    this.endIndex = endIndex - 1;
    this.handler.ontextrange(start, endIndex);
    this.startIndex = endIndex;
  }

  override onopentagname(start: number, endIndex: number): void {
    this.openingPastCap = this.handler.depth >= MAX_OPEN_ELEMENTS;
    super.onopentagname(start, endIndex);
  }

  override onopentagend(endIndex: number): void {
    this.handler.onstarttagend();
    super.onopentagend(endIndex);
    this.openingPastCap = false;
  }

  override onselfclosingtag(endIndex: number): void {
    this.handler.onstarttagend();
    super.onselfclosingtag(endIndex);
    this.openingPastCap = false;
  }

  protected override isVoidElement(name: string): boolean {
    return this.openingPastCap || super.isVoidElement(name);
  }
}
