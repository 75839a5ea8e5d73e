import { describe, expect, it } from 'vitest';
import { accessibilityCheckId, accessibilityChecks, INAPPLICABLE_REASON, NEEDS_REVIEW_REASON } from './index.ts';
import { AXE_RULES } from '../../lab/axe-rules.ts';
import type { AccessibilityRun, AxeRuleOutcome } from '../../lab/lab-types.ts';
import { labContext, withAccessibility } from '../../../test/support/lab-fixtures.ts';

const byId = new Map(accessibilityChecks.map((check) => [check.id, check]));
const check = (id: string) => byId.get(id) ?? (() => { throw new Error(`no check ${id}`); })();
const judged = (id: string, rules: Record<string, AxeRuleOutcome>) => check(id).run(labContext(withAccessibility({ ok: true, rules })));

describe('the accessibility catalogue', () => {
  it('has a check for each of the 64 axe-core rules, in axe-core\'s order, named a11y_ and the rule id', () => {
    expect(accessibilityChecks).toHaveLength(64);
    expect(accessibilityChecks.map((one) => one.id)).toEqual(AXE_RULES.map((rule) => `a11y_${rule.id.replaceAll('-', '_')}`));
    expect(['image-alt', 'color-contrast', 'label', 'html-has-lang', 'button-name', 'link-name', 'document-title'].map(accessibilityCheckId)).toEqual([
      'a11y_image_alt', 'a11y_color_contrast', 'a11y_label', 'a11y_html_has_lang', 'a11y_button_name', 'a11y_link_name', 'a11y_document_title',
    ]);
    for (const one of accessibilityChecks) expect(one.category, one.id).toBe('accessibility');
  });

  it('weighs each rule by its impact: critical and serious high, moderate medium, minor low', () => {
    expect(check('a11y_image_alt').importance).toBe('high'); // critical
    expect(check('a11y_color_contrast').importance).toBe('high'); // serious
    expect(check('a11y_meta_viewport').importance).toBe('medium'); // moderate
    expect(check('a11y_server_side_image_map').importance).toBe('low'); // minor
    const expected = { critical: 'high', serious: 'high', moderate: 'medium', minor: 'low' } as const;
    for (const rule of AXE_RULES) expect(check(accessibilityCheckId(rule.id)).importance, rule.id).toBe(expected[rule.impact]);
  });

  it('words each check as axe-core words its rule, with its help page in how to fix it', () => {
    expect(check('a11y_image_alt')).toMatchObject({
      title: 'Images must have alternative text',
      failureTitle: 'Images must have alternative text',
      description: 'Ensure <img> elements have alternative text or a role of none or presentation',
      howToFix: 'See https://dequeuniversity.com/rules/axe/4.14/image-alt for what the rule asks and how to fix each element listed.',
      learnMoreUrl: 'https://dequeuniversity.com/rules/axe/4.14/image-alt',
    });
    for (const one of accessibilityChecks) expect(one.howToFix, one.id).not.toContain('?application=');
  });
});

describe('an accessibility check', () => {
  const violations = [{ selector: 'img.hero', snippet: '<img class="hero">', message: 'Fix any of the following: no alt' }];

  it('fails on a violation, counting the elements and listing them', () => {
    expect(judged('a11y_image_alt', { 'image-alt': { outcome: 'violation', nodes: 3, violations } })).toEqual({
      passed: false,
      value: { nodes: 3 },
      errors: { violations },
    });
  });

  it('lists at most 25 violations, whatever the audit holds', () => {
    const many = Array.from({ length: 30 }, (_, i) => ({ selector: `#i${i}`, snippet: '<img>', message: 'no alt' }));
    const outcome = judged('a11y_image_alt', { 'image-alt': { outcome: 'violation', nodes: 30, violations: many } });
    expect(outcome).toMatchObject({ passed: false, value: { nodes: 30 } });
    if (outcome.passed !== false) throw new Error('a violation fails');
    expect(outcome.errors?.violations).toHaveLength(25);
  });

  it('passes when the rule held', () => {
    expect(judged('a11y_document_title', { 'document-title': { outcome: 'passed' } })).toEqual({ passed: true, value: { nodes: 0 }, errors: null });
  });

  it('does not apply when the rule was inapplicable, not reported, or only needs review', () => {
    expect(judged('a11y_video_caption', { 'video-caption': { outcome: 'inapplicable' } })).toEqual({ passed: null, reason: INAPPLICABLE_REASON });
    expect(judged('a11y_video_caption', {})).toEqual({ passed: null, reason: 'No element on the page this rule applies to.' });
    expect(judged('a11y_color_contrast', { 'color-contrast': { outcome: 'incomplete' } })).toEqual({ passed: null, reason: NEEDS_REVIEW_REASON });
    expect(NEEDS_REVIEW_REASON).toMatch(/needing review/);
  });

  it('reads its own rule only, also when the rule id is an Object key', () => {
    expect(judged('a11y_label', { 'image-alt': { outcome: 'violation', nodes: 1, violations } })).toMatchObject({ passed: null });
    expect(judged('a11y_label', Object.create({ label: { outcome: 'passed' } }) as Record<string, AxeRuleOutcome>)).toMatchObject({ passed: null });
  });

  it('does not apply without a lab audit, when the audit failed, or when axe-core could not run', () => {
    const imageAlt = check('a11y_image_alt');
    expect(imageAlt.run(labContext(undefined))).toEqual({ passed: null, reason: 'No lab audit was made (lab=1 makes one).' });
    const failedAudit = { ok: false as const, reason: 'The lab audit could not load the page: net::ERR_CONNECTION_REFUSED' };
    expect(imageAlt.run(labContext(failedAudit))).toEqual({ passed: null, reason: failedAudit.reason });
    const failedRun: AccessibilityRun = { ok: false, reason: 'The accessibility engine did not finish within 20 s.' };
    expect(imageAlt.run(labContext(withAccessibility(failedRun)))).toEqual({ passed: null, reason: failedRun.reason });
  });
});
