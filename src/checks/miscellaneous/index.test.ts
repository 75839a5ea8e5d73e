import { describe, it, expect } from 'vitest';
import { existsSync } from 'node:fs';
import { miscellaneousChecks } from './index.ts';

/** The miscellaneous table of CHECKS.md, in order: id and importance. */
const EXPECTED: [string, string][] = [
  ['structured_data', 'medium'],
  ['meta_viewport', 'medium'],
  ['charset', 'medium'],
  ['sitemap', 'low'],
  ['social', 'low'],
  ['inline_css', 'low'],
  ['deprecated_html_tags', 'low'],
];

const fileBase = (id: string) => id.replace(/_/g, '-');
const exportName = (id: string) => `${fileBase(id).replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase())}Check`;

describe('miscellaneousChecks', () => {
  it('lists exactly the checks of the CHECKS.md table, in order, with their importance', () => {
    expect(miscellaneousChecks.map((check) => [check.id, check.importance])).toEqual(EXPECTED);
    expect(new Set(miscellaneousChecks.map((check) => check.id)).size).toBe(miscellaneousChecks.length);
  });

  it.each(miscellaneousChecks.map((check) => [check.id, check] as const))('%s is documented, in the right category and file', async (id, check) => {
    expect(check.category).toBe('miscellaneous');
    for (const text of [check.title, check.failureTitle, check.description, check.howToFix]) expect(text.trim()).not.toBe('');
    expect(check.title).not.toBe(check.failureTitle);
    const file = new URL(`./${fileBase(id)}.ts`, import.meta.url);
    expect(existsSync(file)).toBe(true);
    expect(existsSync(new URL(`./${fileBase(id)}.test.ts`, import.meta.url))).toBe(true);
    const module: Record<string, unknown> = await import(file.href);
    expect(module[exportName(id)]).toBe(check);
  });
});
