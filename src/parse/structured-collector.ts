// The structured data of a page (docs/structured-data.md, "Extraction"), gathered in the one parse
// pass: PageCollector hands on the start tags that carry a microdata or RDFa attribute, the end of
// those elements, and text while one of them wants its text content; the JSON-LD blocks it collects
// anyway are read once the document has ended. Then the items of the three formats are put in
// document order and every offset becomes a line, once for the page.
//
// A page without structured data pays one array store per element (the id table below), one test of a
// flag per start tag and one comparison per end tag.
import type { PageText } from '../fetch/page-text.ts';
import { ExtractionBudget, MAX_TEXT_CHARS, MAX_TEXT_READ, NodeProperties } from '../structured/extraction-limits.ts';
import { JsonLdItems, type JsonLdPlace } from '../structured/json-ld-items.ts';
import { microdataAttributeValue, MicrodataItems, type MicrodataScope, type PendingValue } from '../structured/microdata-items.ts';
import { INITIAL_PREFIXES, rdfaAttributeValue, RdfaItems, rdfaTerm, withPrefixes, type Prefixes } from '../structured/rdfa-items.ts';
import { MAX_ITEMS, type StructuredExtraction, type StructuredFormat, type StructuredValue } from '../structured/structured-types.ts';
import { splitTokens } from '../structured/term-names.ts';
import type { JsonLdBlock } from './page-snapshot.ts';
import type { StartTagAttributes } from './start-tag-attributes.ts';
import { resolveUrl } from './url.ts';
import { CollapsedText } from './whitespace.ts';

/** Characters of the page read into one text-content value; beyond MAX_TEXT_CHARS folded ones it is cut anyway. */
const MAX_TEXT_READ_PER_VALUE = 4 * MAX_TEXT_CHARS;

/** What an element changed, put back when it ends. */
interface Frame {
  depth: number;
  scope: MicrodataScope | null;
  scopeDepth: number;
  vocab: string | null;
  prefixes: Prefixes;
  subject: NodeProperties | null;
  capture: TextCapture | null;
}

/** A text-content value being read: every descendant text, whitespace folded, given to its targets when the element ends. */
class TextCapture {
  private readonly text = new CollapsedText();
  private read = 0;

  constructor(private readonly targets: { text: string }[]) {}

  add(source: string, start: number, end: number, budget: ExtractionBudget): void {
    const take = Math.min(end - start, MAX_TEXT_READ_PER_VALUE - this.read, MAX_TEXT_READ - budget.textRead);
    if (take <= 0) return;
    this.read += take;
    budget.textRead += take;
    this.text.add(source, start, start + take);
  }

  finish(): void {
    let text = this.text.take();
    if (text.length > MAX_TEXT_CHARS) text = text.slice(0, MAX_TEXT_CHARS);
    for (const target of this.targets) target.text = text;
  }
}

export class StructuredCollector {
  /**
   * The id of the element open at each depth, when it is the first element of the page with that id
   * (the one itemref names); undefined otherwise. PageCollector writes it for every element.
   */
  readonly ids: (string | undefined)[] = [undefined];
  /** Depth of the innermost open element whose end matters here (0: none): PageCollector calls close() at its end. */
  openDepth = 0;
  /** An element whose text content is a value is open: PageCollector passes text on to addText(). */
  collectsText = false;

  private readonly budget = new ExtractionBudget();
  // made at the first element of their format: most pages have none
  private microdata: MicrodataItems | null = null;
  private rdfa: RdfaItems | null = null;
  private microdataPresent = false;
  private rdfaPresent = false;
  private readonly frames: Frame[] = [];
  /** Nearest open itemscope element and its depth. */
  private scope: MicrodataScope | null = null;
  private scopeDepth = 0;
  /** Nearest vocab, prefixes in force, and the node of the nearest typeof element (null: none, or it has no node). */
  private vocab: string | null = null;
  private prefixes: Prefixes = INITIAL_PREFIXES;
  private subject: NodeProperties | null = null;
  private readonly captures: TextCapture[] = [];
  /** Values read from a URL attribute, resolved against the final URL at the end. */
  private readonly urlValues: { text: string }[] = [];
  /** The values of the start tag being read that are its text content (null: none). */
  private textTargets: { text: string }[] | null = null;

  /** A start tag outside inert content with itemscope, itemprop, typeof, property, vocab or prefix. */
  open(tag: string, attrs: StartTagAttributes, depth: number, offset: number): void {
    const scope = this.scope;
    const scopeDepth = this.scopeDepth;
    const vocab = this.vocab;
    const prefixes = this.prefixes;
    const subject = this.subject;
    this.textTargets = null;
    this.openMicrodata(tag, attrs, depth, offset);
    this.openRdfa(tag, attrs, offset);
    const capture = this.textTargets === null ? null : new TextCapture(this.textTargets);
    if (capture !== null) {
      this.captures.push(capture);
      this.collectsText = true;
    } else if (scope === this.scope && vocab === this.vocab && prefixes === this.prefixes && subject === this.subject) {
      return; // nothing to put back at its end
    }
    this.frames.push({ depth, scope, scopeDepth, vocab, prefixes, subject, capture });
    this.openDepth = depth;
  }

  /** The element at `openDepth` ends. */
  close(): void {
    const frame = this.frames.pop() as Frame;
    this.scope = frame.scope;
    this.scopeDepth = frame.scopeDepth;
    this.vocab = frame.vocab;
    this.prefixes = frame.prefixes;
    this.subject = frame.subject;
    if (frame.capture !== null) {
      this.captures.pop();
      frame.capture.finish();
      this.collectsText = this.captures.length > 0;
    }
    this.openDepth = this.frames.length === 0 ? 0 : this.frames[this.frames.length - 1].depth;
  }

  /** Text inside the open text-content values (all of it, hidden or not, as textContent has it). */
  addText(source: string, start: number, end: number): void {
    for (const capture of this.captures) capture.add(source, start, end, this.budget);
  }

  /** The extraction, once the document has ended: `jsonLd` and `places` the page's JSON-LD blocks and where they are. */
  finish(jsonLd: readonly JsonLdBlock[], places: readonly JsonLdPlace[], finalUrl: string, html: PageText): StructuredExtraction {
    const formats: StructuredFormat[] = [];
    if (jsonLd.length > 0) formats.push('json-ld');
    if (this.microdataPresent) formats.push('microdata');
    if (this.rdfaPresent) formats.push('rdfa');
    if (formats.length === 0) return { present: false, formats, items: [], problems: [], byId: new Map() };

    for (const value of this.urlValues) value.text = resolveUrl(value.text, finalUrl)?.href ?? value.text;
    this.microdata?.finish();
    const jsonLdItems = new JsonLdItems(this.budget);
    jsonLd.forEach((block, index) => jsonLdItems.addBlock(block.raw, places[index]));
    // every list is in document order already; a stable sort by start offset interleaves them
    const items = [...jsonLdItems.items, ...(this.microdata?.items ?? []), ...(this.rdfa?.items ?? [])].sort((a, b) => a.line - b.line).slice(0, MAX_ITEMS);

    const lines = new LineIndex(lineBreaksUpTo(html, this.lastOffset(jsonLdItems)));
    for (const node of this.budget.nodes) {
      node.line = lines.line(node.line);
      for (const property of node.properties) for (const value of property.values) value.line = lines.line(value.line);
    }
    const problems = jsonLdItems.problems.map(({ problem, errorAt }) => {
      if (problem.kind === 'invalid_json' && errorAt !== null) problem.message += ` (line ${lines.line(errorAt)}, column ${lines.column(errorAt)})`;
      problem.line = lines.line(problem.line);
      return problem;
    });
    return { present: true, formats, items, problems, byId: jsonLdItems.byId };
  }

  /** The last offset that needs a line: line breaks past it need not be looked for. */
  private lastOffset(jsonLdItems: JsonLdItems): number {
    let last = 0;
    for (const node of this.budget.nodes) {
      if (node.line > last) last = node.line;
      for (const property of node.properties) for (const value of property.values) if (value.line > last) last = value.line;
    }
    for (const { problem, errorAt } of jsonLdItems.problems) last = Math.max(last, problem.line, errorAt ?? 0);
    return last;
  }

  private openMicrodata(tag: string, attrs: StartTagAttributes, depth: number, offset: number): void {
    const names = splitTokens(attrs.itemprop);
    let scope: MicrodataScope | null = null;
    if (attrs.itemscope !== undefined) {
      if (attrs.itemtype !== undefined) this.microdataPresent = true;
      const types = splitTokens(attrs.itemtype);
      const isItem = attrs.itemprop === undefined && types.length > 0;
      scope = this.microdataItems().openScope(types, attrs.itemid, splitTokens(attrs.itemref), isItem, names.length > 0, offset);
    }
    if (names.length > 0) {
      let value: PendingValue;
      if (scope !== null) value = { kind: 'node', scope };
      else {
        const fromAttribute = microdataAttributeValue(tag, attrs);
        value = { kind: 'text', text: fromAttribute?.text ?? '' };
        if (fromAttribute === null) (this.textTargets ??= []).push(value);
        else if (fromAttribute.url) this.urlValues.push(value);
      }
      this.microdataItems().addPropertyElement(this.scope, this.pathIds(depth), names, value, offset);
    }
    if (scope !== null) {
      this.scope = scope;
      this.scopeDepth = depth;
    }
  }

  private microdataItems(): MicrodataItems {
    return (this.microdata ??= new MicrodataItems(this.budget));
  }

  /** The ids from below the nearest itemscope element down to the element at `depth`, or null when there are none. */
  private pathIds(depth: number): string[] | null {
    let found: string[] | null = null;
    const last = Math.min(depth, this.ids.length - 1);
    for (let at = this.scopeDepth + 1; at <= last; at++) {
      const id = this.ids[at];
      if (id !== undefined) (found ??= []).push(id);
    }
    return found;
  }

  private openRdfa(tag: string, attrs: StartTagAttributes, offset: number): void {
    if (attrs.vocab !== undefined) this.vocab = attrs.vocab.trim() === '' ? null : attrs.vocab.trim();
    if (attrs.prefix !== undefined) this.prefixes = withPrefixes(this.prefixes, attrs.prefix);
    const parent = this.subject;
    const hasProperty = attrs.property !== undefined;
    let node: NodeProperties | null = null;
    if (attrs.typeof !== undefined) {
      this.rdfaPresent = true;
      const types = splitTokens(attrs.typeof).map((token) => rdfaTerm(token, this.vocab, this.prefixes));
      node = (this.rdfa ??= new RdfaItems(this.budget)).openNode(types, attrs.resource, !hasProperty && types.length > 0, hasProperty && parent !== null, offset);
      this.subject = node;
    }
    if (!hasProperty || parent === null) return;
    const fromAttribute = node === null ? rdfaAttributeValue(tag, attrs) : null;
    for (const token of splitTokens(attrs.property)) {
      const property = parent.property(rdfaTerm(token, this.vocab, this.prefixes));
      if (property === null) return;
      let value: StructuredValue;
      if (node !== null) value = { kind: 'node', node: node.node, line: offset };
      else value = { kind: 'text', text: fromAttribute?.text ?? '', line: offset };
      if (!parent.add(property, value) || value.kind !== 'text') continue;
      if (fromAttribute === null) (this.textTargets ??= []).push(value);
      else if (fromAttribute.url) this.urlValues.push(value);
    }
  }
}

/** PageText.lineBreaks, the offsets just past each "\n", but only those up to `last`. */
function lineBreaksUpTo(html: PageText, last: number): number[] {
  const breaks: number[] = [];
  let start = 0;
  for (const piece of html.pieces) {
    if (start > last) break;
    for (let at = piece.indexOf('\n'); at !== -1 && start + at < last; at = piece.indexOf('\n', at + 1)) breaks.push(start + at + 1);
    start += piece.length;
  }
  return breaks;
}

/** Offsets to 1-based lines and columns, from the offsets just past each line break. */
class LineIndex {
  constructor(private readonly breaks: number[]) {}

  line(offset: number): number {
    const breaks = this.breaks;
    let low = 0;
    let high = breaks.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (breaks[middle] <= offset) low = middle + 1;
      else high = middle;
    }
    return low + 1;
  }

  column(offset: number): number {
    const line = this.line(offset);
    return offset - (line === 1 ? 0 : this.breaks[line - 2]) + 1;
  }
}
