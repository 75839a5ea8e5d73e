import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { AXE_RULES, AXE_TAGS, AXE_VERSION } from './axe-rules.ts';

const axe = createRequire(import.meta.url)('axe-core') as { getRules(tags?: string[]): { ruleId: string; tags: string[] }[] };

describe('the accessibility rules a lab audit runs', () => {
  it('are the 64 rules of axe-core 4.14 with a WCAG A or AA tag, experimental and deprecated ones left out', () => {
    expect(AXE_VERSION).toMatch(/^4\.14\./);
    expect(AXE_RULES).toHaveLength(64);
    const tagged = axe.getRules([...AXE_TAGS]);
    const leftOut = tagged.filter((rule) => !AXE_RULES.some(({ id }) => id === rule.ruleId));
    expect(leftOut.length).toBeGreaterThan(0);
    for (const rule of leftOut) expect(rule.tags.some((tag) => tag === 'experimental' || tag === 'deprecated'), rule.ruleId).toBe(true);
    expect(new Set(AXE_RULES.map((rule) => rule.id)).size).toBe(64);
  });

  it('carry each rule\'s help, description, impact and help page without the API query', () => {
    expect(AXE_RULES.find((rule) => rule.id === 'image-alt')).toEqual({
      id: 'image-alt',
      help: 'Images must have alternative text',
      description: 'Ensure <img> elements have alternative text or a role of none or presentation',
      helpUrl: 'https://dequeuniversity.com/rules/axe/4.14/image-alt',
      impact: 'critical',
      enabledByDefault: true,
    });
    for (const rule of AXE_RULES) expect(rule.helpUrl, rule.id).toMatch(/^https:\/\/dequeuniversity\.com\/rules\/axe\/4\.14\/[a-z-]+$/);
    expect(new Set(AXE_RULES.map((rule) => rule.impact))).toEqual(new Set(['critical', 'serious', 'moderate', 'minor']));
  });

  it('include the rules axe-core leaves off by default, marked so the run turns them on', () => {
    const off = AXE_RULES.filter((rule) => !rule.enabledByDefault).map((rule) => rule.id);
    expect(off).toContain('target-size');
  });
});
