import { describe, expect, it } from 'vitest';
import { plainJson, readJson, type JsonObject, type JsonValue } from './json-reader.ts';
import { MAX_JSON_DEPTH } from './structured-types.ts';

function value(text: string): JsonValue {
  const reading = readJson(text);
  if (!reading.ok) throw new Error(reading.message);
  return reading.value;
}

function failure(text: string): { message: string; offset: number } {
  const reading = readJson(text);
  if (reading.ok) throw new Error(`parsed: ${text}`);
  return { message: reading.message, offset: reading.offset };
}

describe('readJson', () => {
  it('reads what JSON.parse reads, to the same data', () => {
    const samples = [
      '{"a": [1, -2.5e3, 0, true, false, null], "b": {"c": "d"}}',
      '"\\u00e9\\n\\t\\"\\\\\\/ \\ud83d\\ude00"',
      ' [ ] ',
      '{}',
      '-0.125E+2',
      '{"__proto__": 1, "x": {"__proto__": {"y": 2}}}',
      '"plain text with no escapes"',
    ];
    for (const sample of samples) expect(plainJson(value(sample))).toEqual(JSON.parse(sample));
  });

  it('gives every value its start offset and every key its own', () => {
    const text = '{"name": "A", "offers": [ {"price": 9.90} ]}';
    const root = value(text) as JsonObject;
    expect(root.start).toBe(0);
    const name = root.entries.get('name');
    expect(name?.keyStart).toBe(text.indexOf('"name"'));
    expect(name?.value.start).toBe(text.indexOf('"A"'));
    const offers = root.entries.get('offers');
    expect(offers?.value).toMatchObject({ kind: 'array', start: text.indexOf('[') });
    const offer = (offers?.value as { items: JsonObject[] }).items[0];
    expect(offer.start).toBe(text.indexOf('{"price"'));
    expect(offer.entries.get('price')).toMatchObject({ keyStart: text.indexOf('"price"'), value: { kind: 'number', value: 9.9, written: '9.90' } });
  });

  it('keeps a repeated key in its first place with the last value, as JSON.parse does', () => {
    const text = '{"a": 1, "b": 2, "a": 3}';
    const root = value(text) as JsonObject;
    expect([...root.entries.keys()]).toEqual(['a', 'b']);
    expect(root.entries.get('a')).toMatchObject({ keyStart: text.lastIndexOf('"a"'), value: { value: 3 } });
    expect(Object.keys(plainJson(root) as object)).toEqual(Object.keys(JSON.parse(text)));
  });

  it('names the usual mistakes of hand-written JSON, at the character that breaks it', () => {
    expect(failure('{"a": 1, // note\n"b": 2}')).toEqual({ message: 'comments are not allowed in JSON', offset: 9 });
    expect(failure('{"a": 1 /* x */}').message).toBe('comments are not allowed in JSON');
    expect(failure('{"a": 1,}')).toEqual({ message: "trailing comma before '}'", offset: 8 });
    expect(failure('[1, 2, ]')).toEqual({ message: "trailing comma before ']'", offset: 7 });
    expect(failure("{'a': 1}").message).toMatch(/double quotes, not single quotes/);
    expect(failure('{"a": \'b\'}').message).toMatch(/not single quotes/);
    expect(failure('{a: 1}').message).toBe("expected a property name in double quotes, found 'a'");
    expect(failure('{"a" 1}').message).toBe("expected ':' after a property name, found '1'");
    expect(failure('{"a": 1 "b": 2}').message).toBe("expected ',' or '}' after a property value, found '\"'");
    expect(failure('[1 2]').message).toBe("expected ',' or ']' after an array element, found '2'");
    expect(failure('{"a": 1} x')).toEqual({ message: "unexpected text after the JSON value, found 'x'", offset: 9 });
    expect(failure('{"a": [1,').message).toBe('the JSON ends too soon');
    expect(failure('').message).toBe('the block is empty');
  });

  it('rejects what RFC 8259 does not allow in strings and numbers', () => {
    expect(failure('"a\nb"').message).toMatch(/control character in a string/);
    expect(failure('"\\x"').message).toBe("invalid escape '\\x' in a string");
    expect(failure('"\\u12G4"').message).toBe('invalid \\u escape in a string');
    expect(failure('"open').message).toBe('unterminated string');
    expect(failure('"open\\').message).toBe('unterminated string');
    for (const number of ['01', '1.', '.5', '+1', '-', '1e', 'NaN', 'Infinity']) {
      expect(() => JSON.parse(number)).toThrow();
      expect(readJson(number).ok, number).toBe(false);
    }
    expect(failure('{"a": tru}').message).toBe("expected a JSON value, found 't'");
    expect(failure('{"a":\u00a01}').message).toBe('expected a JSON value, found the non-JSON space U+00A0');
  });

  it('says where a CDATA wrapper or an entity-mangled block breaks', () => {
    expect(failure('//<![CDATA[\n{"a": 1}\n//]]>')).toMatchObject({ message: 'comments are not allowed in JSON', offset: 0 });
    expect(failure('<![CDATA[{"a": 1}]]>')).toEqual({ message: "expected a JSON value, found '<'", offset: 0 });
    expect(failure('{&quot;a&quot;: 1}')).toEqual({ message: "expected a property name in double quotes, found '&'", offset: 1 });
  });

  it(`accepts ${MAX_JSON_DEPTH} levels of nesting and reports one more as nested too deep`, () => {
    expect(readJson('['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH)).ok).toBe(true);
    const deep = '{"a":'.repeat(MAX_JSON_DEPTH) + '{}' + '}'.repeat(MAX_JSON_DEPTH);
    expect(failure(deep)).toEqual({ message: `nested too deep (more than ${MAX_JSON_DEPTH} levels)`, offset: deep.indexOf('{}') });
    // far deeper input is refused at the same point, without exhausting the stack
    expect(failure('['.repeat(1_000_000)).message).toMatch(/^nested too deep/);
  });

  it('reads a large block whole', () => {
    const large = JSON.stringify(Array.from({ length: 5_000 }, (_, index) => ({ '@type': 'Thing', name: `item ${index}`, n: index })));
    expect(plainJson(value(large))).toEqual(JSON.parse(large));
  });
});
