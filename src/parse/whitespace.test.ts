import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CollapsedText, collapseWhitespace, isJsWhitespace } from './whitespace.ts';

const byRegex = (text: string) => text.replace(/\s+/g, ' ').trim();

describe('isJsWhitespace', () => {
  it('agrees with \\s on every UTF-16 code unit', () => {
    const disagreements: number[] = [];
    for (let c = 0; c <= 0xffff; c++) if (isJsWhitespace(c) !== /\s/.test(String.fromCharCode(c))) disagreements.push(c);
    expect(disagreements).toEqual([]);
  });
});

describe('collapseWhitespace', () => {
  it('collapses runs to one space and trims both ends', () => {
    expect(collapseWhitespace('\n  Read\t\tmore \u00a0 now\r\n')).toBe('Read more now');
    expect(collapseWhitespace('plain words')).toBe('plain words');
    expect(collapseWhitespace(' \t\n')).toBe('');
    expect(collapseWhitespace('')).toBe('');
    expect(collapseWhitespace('a\nb')).toBe('a b');
  });

  it('matches replace(/\\s+/g, " ").trim() on any text', () => {
    const unit = fc.oneof(
      fc.constantFrom(' ', '\t', '\n', '\r', '\u000b', '\f', '\u00a0', '\u2003', '\u3000', '\ufeff', '\u0085', '\u200b'),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
    );
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 40 }), (text) => {
        expect(collapseWhitespace(text)).toBe(byRegex(text));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('CollapsedText', () => {
  it('collapses text that arrives in pieces, joining a word split between pieces', () => {
    const text = new CollapsedText();
    const source = '  caf\n';
    text.add(source, 0, 5);
    text.add('é au lait', 0, 9);
    text.addSpace();
    text.add('<b>bold</b>', 3, 7);
    text.add(source, 5, 6);
    expect(text.take()).toBe('café au lait bold');
    expect(text.take()).toBe('');
  });

  it('gives what collapseWhitespace gives for the pieces joined (a space for each addSpace)', () => {
    const unit = fc.constantFrom(' ', '\t', '\n', '\u00a0', 'a', 'B', 'é', '.');
    const piece = fc.oneof(fc.string({ unit, maxLength: 6 }), fc.constant(null));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
        const text = new CollapsedText();
        for (const part of pieces) {
          if (part === null) text.addSpace();
          else text.add(`<${part}>`, 1, part.length + 1);
        }
        expect(text.take()).toBe(byRegex(pieces.map((part) => part ?? ' ').join('')));
      }),
      { numRuns: 2000 },
    );
  });

  it('gives the same for ranges of one document, adjacent or apart', () => {
    const unit = fc.constantFrom(' ', ' ', '\n', 'a', 'b', '<', '>');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 30 }), fc.array(fc.tuple(fc.nat(), fc.nat(), fc.boolean()), { maxLength: 6 }), (source, cuts) => {
        const text = new CollapsedText();
        let fed = '';
        let position = 0;
        for (const [skip, length, space] of cuts) {
          const start = Math.min(source.length, position + (skip % 3));
          const end = Math.min(source.length, start + (length % 8));
          if (space) {
            text.addSpace();
            fed += ' ';
          }
          text.add(source, start, end);
          fed += source.slice(start, end);
          position = end;
        }
        expect(text.take()).toBe(byRegex(fed));
      }),
      { numRuns: 5000 },
    );
  });
});
