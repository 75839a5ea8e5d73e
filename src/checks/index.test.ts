// The registry as a whole: every check of CHECKS.md, once, documented, and the generated docs current.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allChecks } from './index.ts';
import { renderCheckDocs } from './check-docs.ts';

function idsInChecksMd(): string[] {
  const text = readFileSync(new URL('../../../shared/CHECKS.md', import.meta.url), 'utf8');
  return [...text.matchAll(/^\| `([a-z0-9_]+)` \|/gm)].map((match) => match[1]);
}

describe('check registry', () => {
  it('holds exactly the ids of CHECKS.md, each once, in table order', () => {
    const ids = allChecks.map((check) => check.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(idsInChecksMd());
  });

  it('documents every check for people', () => {
    for (const check of allChecks) {
      for (const field of ['title', 'failureTitle', 'description', 'howToFix'] as const) {
        expect(check[field].trim().length, `${check.id}.${field}`).toBeGreaterThan(10);
      }
    }
  });

  it('keeps docs/checks.md in step with the registry (npm run docs:checks)', () => {
    const committed = readFileSync(new URL('../../docs/checks.md', import.meta.url), 'utf8');
    expect(committed).toBe(renderCheckDocs(allChecks));
  });
});
