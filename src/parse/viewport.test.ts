import { describe, expect, it } from 'vitest';
import { parseViewport } from './viewport.ts';

describe('parseViewport', () => {
  it('reads properties separated by commas or semicolons, with spaces around =', () => {
    expect(parseViewport('width=device-width, initial-scale = 1; user-scalable=no')).toEqual(
      new Map([['width', 'device-width'], ['initial-scale', '1'], ['user-scalable', 'no']]),
    );
  });

  it('lower-cases names and values and skips parts without a value', () => {
    expect(parseViewport('Width=Device-Width, shrink-to-fit, ,')).toEqual(new Map([['width', 'device-width']]));
  });
});
