import { describe, it, expect } from 'vitest';
import { existsSync } from 'node:fs';
import { performanceChecks } from './index.ts';

/** The performance table of CHECKS.md, in order: id and importance. */
const EXPECTED: [string, string][] = [
  ['text_compression', 'medium'],
  ['load_time', 'medium'],
  ['ttfb', 'medium'],
  ['page_size', 'medium'],
  ['http_requests', 'low'],
  ['image_format', 'medium'],
  ['image_dimensions', 'low'],
  ['defer_javascript', 'low'],
  ['dom_size', 'low'],
  ['doctype', 'medium'],
  ['http2', 'low'],
];

const fileBase = (id: string) => id.replace(/_/g, '-');
const exportName = (id: string) => `${fileBase(id).replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase())}Check`;

describe('performanceChecks', () => {
  it('lists exactly the checks of the CHECKS.md table, in order, with their importance', () => {
    expect(performanceChecks.map((check) => [check.id, check.importance])).toEqual(EXPECTED);
    expect(new Set(performanceChecks.map((check) => check.id)).size).toBe(performanceChecks.length);
  });

  it.each(performanceChecks.map((check) => [check.id, check] as const))('%s is documented, in the right category and file', async (id, check) => {
    expect(check.category).toBe('performance');
    for (const text of [check.title, check.failureTitle, check.description, check.howToFix]) expect(text.trim()).not.toBe('');
    expect(check.title).not.toBe(check.failureTitle);
    const file = new URL(`./${fileBase(id)}.ts`, import.meta.url);
    expect(existsSync(file)).toBe(true);
    expect(existsSync(new URL(`./${fileBase(id)}.test.ts`, import.meta.url))).toBe(true);
    const module: Record<string, unknown> = await import(file.href);
    expect(module[exportName(id)]).toBe(check);
  });
});
