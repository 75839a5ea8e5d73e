import { describe, it, expect } from 'vitest';
import { existsSync } from 'node:fs';
import { securityChecks } from './index.ts';

/** The security table of CHECKS.md, in order: id and importance. */
const EXPECTED: [string, string][] = [
  ['https_encryption', 'high'],
  ['mixed_content', 'medium'],
  ['hsts', 'low'],
  ['server_signature', 'low'],
  ['unsafe_cross_origin_links', 'low'],
  ['plaintext_email', 'low'],
  ['security_headers', 'low'],
  ['insecure_forms', 'medium'],
];

const fileBase = (id: string) => id.replace(/_/g, '-');
const exportName = (id: string) => `${fileBase(id).replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase())}Check`;

describe('securityChecks', () => {
  it('lists exactly the checks of the CHECKS.md table, in order, with their importance', () => {
    expect(securityChecks.map((check) => [check.id, check.importance])).toEqual(EXPECTED);
    expect(new Set(securityChecks.map((check) => check.id)).size).toBe(securityChecks.length);
  });

  it.each(securityChecks.map((check) => [check.id, check] as const))('%s is documented, in the right category and file', async (id, check) => {
    expect(check.category).toBe('security');
    for (const text of [check.title, check.failureTitle, check.description, check.howToFix]) expect(text.trim()).not.toBe('');
    expect(check.title).not.toBe(check.failureTitle);
    const file = new URL(`./${fileBase(id)}.ts`, import.meta.url);
    expect(existsSync(file)).toBe(true);
    expect(existsSync(new URL(`./${fileBase(id)}.test.ts`, import.meta.url))).toBe(true);
    const module: Record<string, unknown> = await import(file.href);
    expect(module[exportName(id)]).toBe(check);
  });
});
