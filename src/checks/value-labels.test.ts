// Reports show a check's field names in words (CheckDefinition.labels), never as "unknown_urls". These
// tests hold every check to a label for each field of its value schema, and, on real pages, for each
// field of its value, each kind of its errors and each field of their items; a new check or field
// without one fails here. Keys that are data (tag, header and crawler names) come from Dict schemas.
import type { TSchema } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { corpusFetchedPage, corpusOriginFacts, loadCorpus } from '../../test/support/corpus.ts';
import { analyzePage } from '../analysis/analyze-page.ts';
import { allChecks, checksById } from './index.ts';
import type { Location } from './locate.ts';
import { DEFAULT_THRESHOLDS } from './thresholds.ts';

/** Every located item carries these, whichever check found it; the report page names them itself. */
const LOCATION_KEYS: readonly string[] = ['line', 'snippet'] satisfies (keyof Location)[];
/** A sample of the corpus: every fourth page, enough to meet most kinds of error without running all 264. */
const SAMPLE_EVERY = 4;

/** The fixed property names of an object schema (or of each object of a union); none for a Dict. */
function schemaKeys(schema: TSchema): string[] {
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as TSchema[]).flatMap(schemaKeys);
  return schema.type === 'object' && schema.properties ? Object.keys(schema.properties) : [];
}

function isDict(schema: TSchema): boolean {
  return schema.type === 'object' && schema.patternProperties !== undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** "check_id: key" for each key the check has no label for. */
function unlabelled(checkId: string, keys: Iterable<string>, allowed: readonly string[] = []): string[] {
  const labels = checksById.get(checkId)?.labels ?? {};
  return [...keys].filter((key) => labels[key] === undefined && !allowed.includes(key)).map((key) => `${checkId}: ${key}`);
}

describe('check labels', () => {
  it('name every field of every check value schema', () => {
    const missing = allChecks.flatMap((check) => unlabelled(check.id, schemaKeys(check.value)));
    expect(missing).toEqual([]);
  });

  it('are words, not the field names again', () => {
    const echoes = allChecks.flatMap((check) =>
      Object.entries(check.labels ?? {})
        .filter(([key, label]) => label.trim() === '' || (key.includes('_') && label === key))
        .map(([key]) => `${check.id}: ${key}`),
    );
    expect(echoes).toEqual([]);
  });

  it('name every field of the values, kinds of errors and fields of their items found on real pages', () => {
    const pages = loadCorpus().filter((_page, index) => index % SAMPLE_EVERY === 0);
    const missing = new Set<string>();
    let errorKinds = 0;
    for (const page of pages) {
      const { results } = analyzePage(corpusFetchedPage(page), corpusOriginFacts(page), DEFAULT_THRESHOLDS);
      for (const [id, result] of Object.entries(results)) {
        const check = checksById.get(id);
        if (!check) throw new Error(`a result for an unregistered check: ${id}`);
        if (isRecord(result.value) && !isDict(check.value)) unlabelled(id, Object.keys(result.value)).forEach((key) => missing.add(key));
        for (const [kind, items] of Object.entries(result.errors ?? {})) {
          errorKinds += 1;
          unlabelled(id, [kind]).forEach((key) => missing.add(key));
          for (const item of items) if (isRecord(item)) unlabelled(id, Object.keys(item), LOCATION_KEYS).forEach((key) => missing.add(key));
        }
      }
    }
    // The sample must meet errors at all, or the test would pass by finding nothing to judge.
    expect(errorKinds).toBeGreaterThan(100);
    expect([...missing]).toEqual([]);
  });
});
