import { describe, expect, it } from 'vitest';
import { hidesElement } from './inline-style.ts';

describe('hidesElement', () => {
  it('reads display:none however it is written', () => {
    for (const style of ['display:none', 'display: none;', ' DISPLAY : None ', 'width:1px;display:none;height:1px', 'display:none !important']) {
      expect(hidesElement(style), style).toBe(true);
    }
  });

  it('lets the last display declaration win, unless an earlier one is !important', () => {
    expect(hidesElement('display:none; display:block')).toBe(false);
    expect(hidesElement('display:block; display:none')).toBe(true);
    expect(hidesElement('display:none !important; display:block')).toBe(true);
  });

  it('is not fooled by other properties, values or comments', () => {
    for (const style of ['', 'color:red', 'display:block', 'visibility:hidden', 'max-display:none', 'display:inline-none', '/* display:none */ color:red', 'content:"display:none"x']) {
      expect(hidesElement(style), style).toBe(false);
    }
  });
});
