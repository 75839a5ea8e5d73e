import { describe, it, expect } from 'vitest';
import { readJsonLd } from './json-ld.ts';

const read = (raw: string) => readJsonLd({ raw });

describe('readJsonLd', () => {
  it.each(['https://schema.org', 'http://schema.org/', 'HTTPS://SCHEMA.ORG/', 'https://schema.org/docs/jsonldcontext.json'])(
    'accepts the context %s',
    (context) => {
      expect(read(JSON.stringify({ '@context': context, '@type': 'Thing' }))).toEqual({ kind: 'valid', types: ['Thing'] });
    },
  );

  it('accepts an array context and an object context with @vocab', () => {
    expect(read('{"@context": ["https://schema.org", {"ex": "https://ex.test/"}], "@type": "Person"}').kind).toBe('valid');
    expect(read('{"@context": {"@vocab": "http://schema.org/"}, "@type": "Person"}').kind).toBe('valid');
  });

  it('reads types from top-level arrays, type arrays, full IRIs and @graph items', () => {
    const raw = JSON.stringify([
      { '@context': 'https://schema.org', '@type': ['Product', 'https://schema.org/Thing'] },
      { '@context': 'https://schema.org', '@graph': [{ '@type': 'WebSite' }, { '@type': 'schema:Organization' }, 'junk'] },
    ]);
    expect(read(raw)).toEqual({ kind: 'valid', types: ['Product', 'Thing', 'WebSite', 'Organization'] });
  });

  it('reports a wrong or missing context but still lists the types', () => {
    expect(read('{"@context": "https://example.com/ns", "@type": "Event"}')).toEqual({
      kind: 'wrong_context', context: 'https://example.com/ns', types: ['Event'],
    });
    expect(read('[{"@context": "https://schema.org", "@type": "A"}, {"@type": "B"}]')).toMatchObject({ kind: 'wrong_context', context: null });
  });

  it('reports invalid JSON with the parser message, and non-objects', () => {
    const invalid = read('{"@context": "https://schema.org",}');
    expect(invalid.kind).toBe('invalid_json');
    expect(invalid.kind === 'invalid_json' && invalid.message.length).toBeGreaterThan(0);
    const cdata = read('//<![CDATA[\n{"@context": "https://schema.org"}\n//]]>');
    expect(cdata).toMatchObject({ kind: 'invalid_json', message: expect.stringMatching(/^wrapped in <!\[CDATA\[ \]\]>, which is not JSON: /) });
    expect(read('42')).toEqual({ kind: 'invalid_json', message: 'not a JSON-LD object or array of objects' });
    expect(read('')).toMatchObject({ kind: 'invalid_json' });
  });
});
