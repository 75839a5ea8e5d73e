import { describe, expect, it } from 'vitest';
import { makeContext } from '../../../test/support/check-context.ts';
import { httpStatusCheck } from './http-status.ts';

const run = (statusCode: number) => httpStatusCheck.run(makeContext({ page: { statusCode } }));

describe('http_status', () => {
  it('passes a 2xx final status', () => {
    expect(run(200)).toEqual({ passed: true, value: { status_code: 200, final_url: 'https://example.com/page' }, errors: null });
    expect(run(203).passed).toBe(true);
  });

  it('fails 4xx and 5xx', () => {
    expect(run(404)).toMatchObject({ passed: false, errors: { status: [404] } });
    expect(run(503).passed).toBe(false);
  });
});
