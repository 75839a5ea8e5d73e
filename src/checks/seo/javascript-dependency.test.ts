import { describe, expect, it } from 'vitest';
import { makeContext } from '../../../test/support/check-context.ts';
import type { Rendered, RenderedComparison } from '../../render/compare-rendered.ts';
import { javascriptDependencyCheck } from './javascript-dependency.ts';

/** A page JavaScript leaves as it was: every pair the same. */
function unchanged(): RenderedComparison {
  return {
    title: { raw: 'Fresh bread daily', rendered: 'Fresh bread daily' },
    meta_description: { raw: 'Bread baked every morning.', rendered: 'Bread baked every morning.' },
    canonical: { raw: 'https://example.com/page', rendered: 'https://example.com/page' },
    robots: { raw: null, rendered: null },
    h1: { raw: ['Bread'], rendered: ['Bread'] },
    links: { raw: 10, rendered: 10, only_rendered: [], internal: { raw: 8, rendered: 8, only_rendered: 0 } },
    words: { raw: 500, rendered: 520 },
    json_ld_types: { raw: ['Bakery'], rendered: ['Bakery'] },
  };
}

const run = (rendered?: Rendered) => javascriptDependencyCheck.run({ ...makeContext(), rendered });

describe('javascript_dependency', () => {
  it('passes when the raw HTML already has the key tags and nearly all links and words', () => {
    const comparison = unchanged();
    comparison.links.internal = { raw: 8, rendered: 10, only_rendered: 2 };
    comparison.words = { raw: 400, rendered: 500 };
    // JSON-LD added by scripts is shown but is not part of the rule.
    comparison.json_ld_types = { raw: [], rendered: ['Bakery'] };
    expect(run(comparison)).toEqual({
      passed: true,
      value: { changed: [], internal_links_in_raw_percent: 80, words_in_raw_percent: 80 },
      errors: null,
    });
  });

  it('fails when JavaScript changes the title, canonical or h1, naming each with both values', () => {
    const comparison = unchanged();
    comparison.title = { raw: 'Loading…', rendered: 'Fresh bread daily' };
    comparison.canonical = { raw: null, rendered: 'https://example.com/page' };
    comparison.h1 = { raw: [], rendered: ['Bread'] };
    expect(run(comparison)).toMatchObject({
      passed: false,
      value: { changed: ['title', 'canonical', 'h1'] },
      errors: {
        changed: [
          { field: 'title', raw: 'Loading…', rendered: 'Fresh bread daily' },
          { field: 'canonical', raw: null, rendered: 'https://example.com/page' },
          { field: 'h1', raw: [], rendered: ['Bread'] },
        ],
      },
    });
  });

  it('fails a robots meta that scripts add or change', () => {
    const comparison = unchanged();
    comparison.robots = { raw: 'index, follow', rendered: 'noindex' };
    expect(run(comparison)).toMatchObject({ passed: false, errors: { changed: [{ field: 'robots', raw: 'index, follow', rendered: 'noindex' }] } });
  });

  it('fails when links or words come mostly from JavaScript, listing the links only the rendered page has', () => {
    const comparison = unchanged();
    comparison.links = {
      raw: 2,
      rendered: 12,
      only_rendered: ['https://example.com/a', 'https://example.com/b'],
      internal: { raw: 2, rendered: 12, only_rendered: 10 },
    };
    comparison.words = { raw: 40, rendered: 900 };
    expect(run(comparison)).toEqual({
      passed: false,
      value: { changed: [], internal_links_in_raw_percent: 16, words_in_raw_percent: 4 },
      errors: {
        links_only_after_javascript: ['https://example.com/a', 'https://example.com/b'],
        words_only_after_javascript: [{ raw: 40, rendered: 900 }],
      },
    });
  });

  it('passes a rendered page with no internal links or words at all', () => {
    const comparison = unchanged();
    comparison.links.internal = { raw: 0, rendered: 0, only_rendered: 0 };
    comparison.words = { raw: 0, rendered: 0 };
    expect(run(comparison)).toMatchObject({ passed: true, value: { internal_links_in_raw_percent: 100, words_in_raw_percent: 100 } });
  });

  it('does not apply when the page was not rendered, or its rendering failed (saying why)', () => {
    expect(run(undefined)).toEqual({ passed: null, reason: 'The page was not rendered in a browser (ask for it with render=1).' });
    expect(run({ error: 'The page did not finish loading in the browser within 10000 ms.' })).toEqual({
      passed: null,
      reason: 'The page could not be rendered: The page did not finish loading in the browser within 10000 ms.',
    });
  });
});
