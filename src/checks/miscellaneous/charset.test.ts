import { describe, it, expect } from 'vitest';
import { makeContext } from '../../../test/support/check-context.ts';
import type { MetaTag } from '../../parse/page-snapshot.ts';
import { charsetCheck } from './charset.ts';

const meta = (extra: Partial<MetaTag>): MetaTag => ({ name: null, property: null, httpEquiv: null, charset: null, content: null, inHead: true, ...extra });

describe('charset', () => {
  it('passes a charset from the header or a BOM', () => {
    expect(charsetCheck.run(makeContext())).toMatchObject({ passed: true, value: { charset: 'utf-8', source: 'header' } });
    expect(charsetCheck.run(makeContext({ page: { charsetSource: 'bom' } }))).toMatchObject({ passed: true, value: { source: 'bom' } });
  });

  it('passes a meta declaration within the first 1024 bytes', () => {
    const outcome = charsetCheck.run(makeContext({ page: { charsetSource: 'meta', metaCharsetInFirst1024Bytes: true, charset: 'windows-1252' } }));
    expect(outcome).toMatchObject({ passed: true, value: { charset: 'windows-1252', source: 'meta' } });
  });

  it('fails a meta declaration that comes too late, and says so', () => {
    const outcome = charsetCheck.run(
      makeContext({ page: { charsetSource: 'meta', metaCharsetInFirst1024Bytes: false }, snapshot: { metas: [meta({ charset: 'utf-8' })] } }),
    );
    expect(outcome).toMatchObject({
      passed: false,
      value: { source: 'meta_after_1024_bytes' },
      errors: { declared_too_late: [expect.stringContaining('<meta charset="utf-8">')] },
    });
  });

  it('fails when nothing declares a charset; an http-equiv meta without content does not count', () => {
    const outcome = charsetCheck.run(
      makeContext({ page: { charsetSource: 'default' }, snapshot: { metas: [meta({ httpEquiv: 'content-type', content: null })] } }),
    );
    expect(outcome).toMatchObject({ passed: false, value: { source: null }, errors: { missing: [expect.any(String)] } });
  });
});
