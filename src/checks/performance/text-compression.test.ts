import { describe, it, expect } from 'vitest';
import { makeContext } from '../../../test/support/check-context.ts';
import { textCompressionCheck } from './text-compression.ts';

const run = (contentEncoding: string | null) => textCompressionCheck.run(makeContext({ page: { contentEncoding } }));

describe('text_compression', () => {
  it.each(['gzip', 'br', 'zstd', 'deflate', 'X-GZIP', ' Br '])('passes with %s', (encoding) => {
    const outcome = run(encoding);
    expect(outcome.passed).toBe(true);
    expect(outcome.value).toMatchObject({ content_encoding: encoding, transferred_bytes: 1000 });
  });

  it('passes when several codings were applied', () => {
    expect(run('identity, gzip').passed).toBe(true);
  });

  it('fails without compression and names the page', () => {
    const outcome = run(null);
    expect(outcome).toMatchObject({ passed: false, value: { content_encoding: null }, errors: { uncompressed: ['https://example.com/page'] } });
  });

  it('fails on an encoding browsers do not decode', () => {
    expect(run('compress')).toMatchObject({ passed: false, errors: { unsupported_encoding: ['compress'] } });
    expect(run('identity')).toMatchObject({ passed: false, errors: { uncompressed: ['https://example.com/page'] } });
  });
});
