import { describe, expect, it } from 'vitest';
import type { AuxResponse } from '../../fetch/types.ts';
import { makeAux, makeContext } from '../../../test/support/check-context.ts';
import { llmsTxtCheck } from './llms-txt.ts';

const URL = 'https://example.com/llms.txt';
const run = (overrides: Partial<AuxResponse>) => llmsTxtCheck.run(makeContext({ origin: { llmsTxt: makeAux(URL, overrides) } }));
const served = (body: string, contentType = 'text/plain; charset=utf-8') => run({ statusCode: 200, contentType, body });

const GOOD = '# Example Coffee\n\n> Beans roasted weekly in Zürich.\n\n## Shop\n\n- [Beans](https://example.com/beans.md): what we roast\n- [Brewing](/brewing.md)\n';

describe('llms_txt', () => {
  it('passes a well-formed file and describes it', () => {
    expect(served(GOOD)).toEqual({
      passed: true,
      value: { url: URL, status_code: 200, content_type: 'text/plain; charset=utf-8', title: 'Example Coffee', summary: 'Beans roasted weekly in Zürich.', sections: 1, links: 2 },
      errors: null,
    });
    expect(served(GOOD, 'text/markdown').passed).toBe(true);
  });

  it('fails when the origin has no llms.txt', () => {
    expect(run({ statusCode: 404 })).toMatchObject({ passed: false, errors: { missing: [{ url: URL, status_code: 404 }] } });
  });

  it('fails a file served as something other than text', () => {
    expect(served(GOOD, 'text/html').passed).toBe(true); // text/* is text, even if an odd choice
    expect(served(GOOD, 'application/octet-stream')).toMatchObject({ passed: false, errors: { not_text: [{ content_type: 'application/octet-stream' }] } });
    expect(run({ statusCode: 200, contentType: null, body: GOOD })).toMatchObject({ passed: false, errors: { not_text: [{ content_type: null }] } });
  });

  it('says what deviates from the format, with line numbers', () => {
    const outcome = served('Welcome!\n# Example\n## Pages\n- Home: https://example.com/\n## Empty\n');
    expect(outcome).toMatchObject({
      passed: false,
      value: { title: null, sections: 2, links: 0 },
      errors: {
        no_title: [{ line: 1, text: 'Welcome!' }],
        extra_titles: [{ line: 2, text: '# Example' }],
        malformed_links: [{ line: 4, text: '- Home: https://example.com/' }],
        empty_sections: [{ line: 3, section: 'Pages' }, { line: 5, section: 'Empty' }],
        no_links: [expect.stringContaining('[name](url)')],
      },
    });
    expect(served('')).toMatchObject({ passed: false, errors: { no_title: [{ line: 1, text: '(the file is empty)' }] } });
  });

  it('does not apply when llms.txt could not be read (server error, rate limit, network)', () => {
    expect(run({ statusCode: 503 })).toMatchObject({ passed: null, reason: expect.stringContaining('503') });
    expect(run({ statusCode: 429 }).passed).toBeNull();
    expect(run({ statusCode: null, error: 'The request timed out.' })).toMatchObject({ passed: null, reason: expect.stringContaining('timed out') });
  });
});
