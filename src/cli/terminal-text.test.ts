import { describe, expect, it } from 'vitest';
import { createStyle, printable, truncate, wantsColour } from './terminal-text.ts';

describe('printable', () => {
  it('drops escape sequences’ control characters, C1 controls and bidi overrides', () => {
    expect(printable('a\u001b[31mb\u001b]0;t\u0007c\u009bd\u202eе\u2066f')).toBe('a[31mb]0;tcdеf');
  });

  it('puts everything on one line', () => {
    expect(printable('one\r\ntwo\tthree\u2028four')).toBe('one two three four');
  });

  it('leaves ordinary text alone, accents and emoji included', () => {
    expect(printable('Café – 東京 🚀')).toBe('Café – 東京 🚀');
  });
});

describe('truncate', () => {
  it('cuts by characters and marks the cut', () => {
    expect(truncate('abcdef', 4)).toBe('abc…');
    expect(truncate('abcd', 4)).toBe('abcd');
    expect(truncate('🚀🚀🚀', 2)).toBe('🚀…');
  });
});

describe('wantsColour', () => {
  const tty = { isTTY: true };
  const pipe = { isTTY: false };
  it.each([
    [tty, {}, true],
    [pipe, {}, false],
    [tty, { NO_COLOR: '1' }, false],
    [tty, { NO_COLOR: '' }, true],
    [tty, { TERM: 'dumb' }, false],
    [pipe, { FORCE_COLOR: '1' }, true],
    [pipe, { FORCE_COLOR: '' }, true],
    [tty, { FORCE_COLOR: '0' }, false],
    [tty, { FORCE_COLOR: 'false' }, false],
    [pipe, { FORCE_COLOR: '1', NO_COLOR: '1' }, true],
  ])('%j with %j: %s', (stream, env, expected) => {
    expect(wantsColour(stream, env)).toBe(expected);
  });
});

describe('createStyle', () => {
  it('wraps in SGR codes only when colour is on', () => {
    expect(createStyle(true).red('x')).toBe('\u001b[31mx\u001b[39m');
    expect(createStyle(false).red('x')).toBe('x');
  });
});
