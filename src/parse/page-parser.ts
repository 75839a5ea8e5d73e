// htmlparser2's Parser with two changes parsePage needs.
//
// 1. A start-tag-end signal. htmlparser2 only reports "this start tag's attributes are complete"
//    through onopentag, and only after building an attributes object for every tag, which costs more
//    than everything else parsePage does per tag. The handler takes attributes through onattribute
//    instead and is told here when the tag ends.
// 2. A nesting cap. htmlparser2 keeps open elements in an array it unshifts on every start tag and
//    searches on every end tag, so each tag costs time in proportion to the depth: 100,000 nested
//    <div>s take seconds, a few megabytes of them minutes. Past MAX_OPEN_ELEMENTS new elements are
//    treated as void (opened and closed at once), which keeps parsing linear. Chrome stops nesting at
//    the same depth; real pages stay far below it.
import { Parser, type Handler, type ParserOptions } from 'htmlparser2';

export const MAX_OPEN_ELEMENTS = 512;

export interface PageParserHandler extends Partial<Handler> {
  /** The current start tag's attributes are complete. May be called twice for one tag. */
  onstarttagend(): void;
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
