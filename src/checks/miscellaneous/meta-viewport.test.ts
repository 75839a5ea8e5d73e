import { describe, it, expect } from 'vitest';
import { makeContext } from '../../../test/support/check-context.ts';
import type { MetaTag } from '../../parse/page-snapshot.ts';
import { metaViewportCheck } from './meta-viewport.ts';

const viewport = (content: string | null): MetaTag => ({ name: 'viewport', property: null, httpEquiv: null, charset: null, content, inHead: true });
const run = (...metas: MetaTag[]) => metaViewportCheck.run(makeContext({ snapshot: { metas } }));

describe('meta_viewport', () => {
  it('passes width=device-width, tolerating case, spaces and semicolons', () => {
    expect(run(viewport('Width = Device-Width; initial-scale=1'))).toMatchObject({ passed: true, value: { width: 'device-width' } });
    expect(run(viewport('width=device-width, initial-scale=1, maximum-scale=5'))).toMatchObject({ passed: true, value: { maximum_scale: 5 } });
  });

  it('fails a missing tag, and a tag whose content is absent (value= instead of content=)', () => {
    expect(run()).toMatchObject({ passed: false, value: { content: null }, errors: { missing: ['no <meta name="viewport"> tag'] } });
    expect(run(viewport(null))).toMatchObject({ passed: false, value: { content: null }, errors: { missing: ['the viewport meta tag has no content'] } });
  });

  it('fails without width=device-width', () => {
    expect(run(viewport('width=1024'))).toMatchObject({ passed: false, errors: { no_device_width: ['width=1024'] } });
  });

  it('fails when zoom is disabled or capped below 5', () => {
    expect(run(viewport('width=device-width, user-scalable=no'))).toMatchObject({ passed: false, errors: { zoom_disabled: ['user-scalable=no'] } });
    expect(run(viewport('width=device-width, user-scalable=0'))).toMatchObject({ passed: false, errors: { zoom_disabled: ['user-scalable=0'] } });
    expect(run(viewport('width=device-width, maximum-scale=1.0'))).toMatchObject({
      passed: false,
      value: { maximum_scale: 1 },
      errors: { maximum_scale_too_low: ['maximum-scale=1'] },
    });
  });

  it('uses the last viewport tag, as browsers do', () => {
    expect(run(viewport('width=device-width'), viewport('width=980')).passed).toBe(false);
  });
});
