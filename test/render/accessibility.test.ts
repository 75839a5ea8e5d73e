// axe-core in real Chromium (src/lab/accessibility.ts): on a page with planted defects the rules they
// break fail, with the elements named; on a clean page the same rules pass; a page that redefines the
// globals axe-core would use (window.axe, Promise, Array.prototype.map) changes nothing, as axe-core
// runs in a world of its own; a page whose main thread never returns ends at the deadline. Then the
// checks read the run as the report will.
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityChecks } from '../../src/checks/accessibility/index.ts';
import { addressPolicy } from '../../src/fetch/address-guard.ts';
import { runAccessibility } from '../../src/lab/accessibility.ts';
import type { AccessibilityRun, AxeRuleOutcome } from '../../src/lab/lab-types.ts';
import { createBrowserPool, type BrowserPool } from '../../src/render/browser-pool.ts';
import type { RenderLimits } from '../../src/render/render-page.ts';
import { CHROMIUM, chromiumInstalled, whenChromiumMissing } from '../support/chromium.ts';
import { labContext, withAccessibility } from '../support/lab-fixtures.ts';
import { html, startSite, type Site } from '../support/site-server.ts';

const TEST_MS = 90_000;
/** axe-core takes well under a second on these pages; a loaded 2-core machine is given room. */
const AXE_MS = 20_000;
const LIMITS: RenderLimits = {
  policy: addressPolicy({ allowPrivate: true }),
  timeoutMs: 60_000,
  maxBytes: 1024 * 1024,
  maxRequests: 20,
  userAgent: 'pagegrade-test',
};

const DOT = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///ywAAAAAAQABAAACAUwAOw==';
/** The rules the defects page breaks, each by one planted element, and the clean page keeps. */
const PLANTED = ['image-alt', 'label', 'color-contrast', 'html-has-lang', 'button-name', 'link-name', 'target-size'];

const DEFECTS = `<!doctype html><html><head><meta charset="utf-8"><title>Planted defects</title></head>
<body><main><h1>Planted defects</h1>
<img id="no-alt" src="${DOT}" width="40" height="40">
<input id="unlabelled" type="text">
<p id="faint" style="color:#d0d0d0;background:#ffffff">This text is too faint to read.</p>
<button id="empty"></button>
<a id="textless" href="/elsewhere"></a>
<div><button aria-label="Smaller" style="width:10px;height:10px;padding:0;border:0;margin:0"></button><button aria-label="Larger" style="width:10px;height:10px;padding:0;border:0;margin:0"></button></div>
</main></body></html>`;

const CLEAN = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A clean page</title></head>
<body><main><h1>A clean page</h1>
<img src="${DOT}" width="40" height="40" alt="A grey dot">
<label for="search">Search</label> <input id="search" type="text">
<p style="color:#222222;background:#ffffff">This text is easy to read.</p>
<button style="min-width:44px;min-height:44px">Send</button>
<a href="/elsewhere">Read the guide</a>
</main></body></html>`;

/** The defects page's image, after the page has broken what a script run in the page would lean on. */
const HOSTILE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Hostile globals</title>
<script>
  window.axe = { run: () => Promise.resolve({ violations: [], passes: [], incomplete: [], inapplicable: [] }) };
  window.Promise = function () { throw new Error('no promises here'); };
  Array.prototype.map = function () { throw new Error('map hijacked'); };
  JSON.stringify = () => '{}';
</script></head>
<body><main><h1>Hostile globals</h1><img id="no-alt" src="${DOT}" width="40" height="40"></main></body></html>`;

const STUCK = `<!doctype html><html lang="en"><head><title>Stuck</title></head><body><h1>Stuck</h1>
<script>addEventListener('load', () => setTimeout(() => { for (;;) {} }, 50));</script></body></html>`;

whenChromiumMissing('axe-core in the browser');

describe.runIf(chromiumInstalled)('axe-core in the browser', () => {
  let site: Site;
  let pool: BrowserPool;

  beforeAll(async () => {
    site = await startSite({ '/defects': html(DEFECTS), '/clean': html(CLEAN), '/hostile': html(HOSTILE), '/stuck': html(STUCK) });
    pool = createBrowserPool({ chromiumPath: CHROMIUM, size: 1 });
  });
  afterAll(async () => {
    await pool?.close();
    await site?.close();
  });

  const audit = (path: string, timeoutMs = AXE_MS) =>
    pool.withContext(LIMITS, async (context: BrowserContext) => {
      const page = await context.newPage();
      await page.goto(site.url(path));
      return runAccessibility(page, timeoutMs);
    });

  const rulesOf = (run: AccessibilityRun): Record<string, AxeRuleOutcome> => {
    if (!run.ok) throw new Error(`axe-core did not run: ${run.reason}`);
    return run.rules;
  };

  it('fails each rule the defects page breaks, naming the element, and the checks say so', { timeout: TEST_MS }, async () => {
    const run = await audit('/defects');
    const rules = rulesOf(run);
    for (const id of PLANTED) expect(rules[id]?.outcome, id).toBe('violation');
    const violation = (id: string) => {
      const outcome = rules[id];
      if (outcome?.outcome !== 'violation') throw new Error(`${id} is not violated`);
      return outcome;
    };
    expect(violation('image-alt')).toMatchObject({ nodes: 1, violations: [{ selector: '#no-alt' }] });
    expect(violation('image-alt').violations[0].snippet).toMatch(/^<img id="no-alt"/);
    expect(violation('image-alt').violations[0].message).toMatch(/alt attribute/);
    expect(violation('label').violations[0].selector).toBe('#unlabelled');
    expect(violation('color-contrast').violations[0].selector).toBe('#faint');
    expect(violation('button-name').violations[0].selector).toBe('#empty');
    expect(violation('link-name').violations[0].selector).toBe('#textless');
    expect(violation('html-has-lang').violations[0].selector).toBe('html');
    for (const outcome of Object.values(rules)) {
      if (outcome.outcome !== 'violation') continue;
      for (const item of outcome.violations) {
        expect(item.selector.length).toBeGreaterThan(0);
        expect(item.snippet.length).toBeLessThanOrEqual(200);
      }
    }
    // A rule with nothing to judge on the page (no video) is inapplicable.
    expect(rules['video-caption']?.outcome ?? 'inapplicable').toBe('inapplicable');

    const results = Object.fromEntries(accessibilityChecks.map((check) => [check.id, check.run(labContext(withAccessibility(run)))]));
    expect(results.a11y_image_alt).toMatchObject({ passed: false, value: { nodes: 1 }, errors: { violations: [{ selector: '#no-alt' }] } });
    for (const id of ['a11y_label', 'a11y_color_contrast', 'a11y_html_has_lang', 'a11y_button_name', 'a11y_link_name', 'a11y_target_size']) {
      expect(results[id].passed, id).toBe(false);
    }
    expect(results.a11y_document_title).toEqual({ passed: true, value: { nodes: 0 }, errors: null });
    expect(results.a11y_video_caption).toEqual({ passed: null, reason: 'No element on the page this rule applies to.' });
  });

  it('passes the same rules on a clean page, and finds nothing to fail', { timeout: TEST_MS }, async () => {
    const rules = rulesOf(await audit('/clean'));
    for (const id of PLANTED.filter((id) => id !== 'target-size')) expect(rules[id]?.outcome, id).toBe('passed');
    // A 44 px button alone: large enough, or nothing for the rule to judge.
    expect(['passed', 'inapplicable']).toContain(rules['target-size']?.outcome ?? 'inapplicable');
    expect(Object.entries(rules).filter(([, outcome]) => outcome.outcome === 'violation').map(([id]) => id)).toEqual([]);
  });

  it('runs apart from the page\'s scripts: redefined globals change nothing, and the page never sees axe-core', { timeout: TEST_MS }, async () => {
    const { run, pageAxe } = await pool.withContext(LIMITS, async (context) => {
      const page = await context.newPage();
      await page.goto(site.url('/hostile'));
      const result = await runAccessibility(page, AXE_MS);
      return { run: result, pageAxe: await page.evaluate('Object.keys(window.axe).join(",")') };
    });
    expect(rulesOf(run)['image-alt']).toMatchObject({ outcome: 'violation', nodes: 1, violations: [{ selector: '#no-alt' }] });
    expect(rulesOf(run)['document-title']).toEqual({ outcome: 'passed' });
    // The page's own window.axe is still its stand-in.
    expect(pageAxe).toBe('run');
  });

  it('gives up at its deadline on a page whose main thread never returns', { timeout: TEST_MS }, async () => {
    const started = performance.now();
    const run = await audit('/stuck', 1_500);
    expect(run).toEqual({ ok: false, reason: 'The accessibility engine did not finish within 1.5 s.' });
    expect(performance.now() - started).toBeLessThan(LIMITS.timeoutMs);
  });
});
