// The report page's Lab section and Accessibility category (src/web/views/lab-section.ts, report.ts),
// from fixture reports: the profile, each metric with its band (a word, coloured as a verdict) and its
// edges, the LCP element, the largest shifts and longest tasks, what was downloaded by type, the
// accessibility summary, and the Accessibility category with its checks and gauge; none of it for a
// run without a lab audit. Everything from the page is escaped; nothing is folded away from paper.
import { describe, expect, it } from 'vitest';
import { checksById } from '../../src/checks/index.ts';
import { NO_LAB_AUDIT_REASON } from '../../src/checks/lab-audit.ts';
import type { Lab } from '../../src/lab/lab-types.ts';
import { escapeHtml } from '../../src/web/html.ts';
import { reportPage } from '../../src/web/views/report.ts';
import { LAB, LAB_RESULTS, labAnalysis, labReport, resultOf } from '../support/lab-fixtures.ts';
import { expectNoInlineCode } from './web-client.ts';

const pageOf = (report = labReport()) => reportPage({ report, asOwner: false, signedIn: false }).toString();
const withLab = (lab: Partial<Lab>) => labReport(labAnalysis({ lab: { ...LAB, ...lab } }));

/** The markup from `marker` to the end of the element it opens (`end`, the first after it). */
function between(body: string, marker: string, end: string): string {
  const start = body.indexOf(marker);
  if (start === -1) throw new Error(`no ${marker} in the page`);
  return body.slice(start, body.indexOf(end, start) + end.length);
}

const labOf = (body: string) => between(body, '<section class="lab"', '</section>');
/** A metric's row: [name, measured, band chip or null, edges or "No band"], tags dropped. */
function metricRow(section: string, key: string): string[] {
  const row = between(section, `data-metric="${key}"`, '</tr>');
  return [...row.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((cell) => cell[1].replace(/<span class="verdict-chip verdict-chip--(\w+) lab-band">([^<]+)<\/span>/, '[$1: $2] ').replace(/<[^>]+>/g, '').trim());
}

describe('the Lab section', () => {
  const body = pageOf();
  const section = labOf(body);

  it('comes after the summary and what to fix first, before the categories', () => {
    expect(body.indexOf('<section class="lab"')).toBeGreaterThan(body.indexOf('<section class="fix-first"'));
    expect(body.indexOf('<section class="lab"')).toBeLessThan(body.indexOf('<section class="category"'));
    expect(section).toContain('<h2 id="lab-heading">Lab</h2>');
  });

  it('says how the page was loaded: the profile, its screen, CPU and network', () => {
    expect(section).toContain(
      'Loaded cold in Chromium as on a phone (mobile profile): a 412 × 823 screen, a CPU 4 times slower than the server&#39;s, ' +
        '1.6 Mbit/s down and 750 kbit/s up with 150 ms round trips, as Lighthouse loads it.',
    );
    expect(labOf(pageOf(withLab({ profile: 'desktop' })))).toContain(
      "as on a desktop computer (desktop profile): a 1350 × 940 screen, the server&#39;s CPU as it is, 10 Mbit/s down and 10 Mbit/s up with 40 ms round trips",
    );
  });

  it('lists the six metrics with their bands in words, coloured as verdicts, and the edges; TTFB and load without', () => {
    expect(metricRow(section, 'lcp_ms')).toEqual(['Largest Contentful Paint (LCP)', '4,690 ms', '[bad: Poor] good ≤ 2,500 ms, poor &gt; 4,000 ms']);
    expect(metricRow(section, 'cls')).toEqual(['Cumulative Layout Shift (CLS)', '0.012', '[good: Good] good ≤ 0.1, poor &gt; 0.25']);
    expect(metricRow(section, 'tbt_ms')).toEqual(['Total Blocking Time (TBT)', '250 ms', '[decent: Needs improvement] good ≤ 200 ms, poor &gt; 600 ms']);
    expect(metricRow(section, 'fcp_ms')).toEqual(['First Contentful Paint (FCP)', '702 ms', '[good: Good] good ≤ 1,800 ms, poor &gt; 3,000 ms']);
    expect(metricRow(section, 'ttfb_ms')).toEqual(['Time to First Byte (TTFB)', '571 ms', 'No band']);
    expect(metricRow(section, 'load_ms')).toEqual(['Load event', '4,703 ms', 'No band']);
    expect(metricRow(section, 'page_weight')).toEqual(['Page weight', '79.3 KiB in 7 requests', '[good: Good] good ≤ 1,600 KiB, poor &gt; 4,000 KiB']);
    const keys = [...section.matchAll(/data-metric="([a-z_]+)"/g)].map((match) => match[1]);
    expect(keys).toEqual(['lcp_ms', 'cls', 'tbt_ms', 'fcp_ms', 'ttfb_ms', 'load_ms', 'page_weight']);
  });

  it('bands by the edges, each edge itself the better band', () => {
    const bandsAt = (metrics: Partial<Lab['metrics']>) => {
      const lab = labOf(pageOf(withLab({ metrics: { ...LAB.metrics, ...metrics } })));
      return ['lcp_ms', 'cls', 'tbt_ms', 'fcp_ms'].map((key) => /\[(\w+):/.exec(metricRow(lab, key)[2])?.[1]);
    };
    expect(bandsAt({ lcp_ms: 2500, cls: 0.1, tbt_ms: 200, fcp_ms: 1800 })).toEqual(['good', 'good', 'good', 'good']);
    expect(bandsAt({ lcp_ms: 4000, cls: 0.25, tbt_ms: 600, fcp_ms: 3000 })).toEqual(['decent', 'decent', 'decent', 'decent']);
    expect(bandsAt({ lcp_ms: 4001, cls: 0.251, tbt_ms: 601, fcp_ms: 3001 })).toEqual(['bad', 'bad', 'bad', 'bad']);
  });

  it('says what was not measured, without a band', () => {
    const lab = labOf(pageOf(withLab({ metrics: { ttfb_ms: null, fcp_ms: null, lcp_ms: null, cls: 0, tbt_ms: null, load_ms: null }, lcp_element: null })));
    expect(metricRow(lab, 'lcp_ms')).toEqual(['Largest Contentful Paint (LCP)', 'Not measured: nothing contentful was painted', 'Not measured']);
    expect(metricRow(lab, 'load_ms')).toEqual(['Load event', 'Not measured: the load event did not come within the audit', 'No band']);
    expect(lab).toContain('None: the page has no largest contentful paint, or its element is gone from the page');
  });

  it('shows the LCP element, the accessibility summary linking its category, the shifts and the tasks', () => {
    expect(section).toContain(
      '<dt>Largest contentful paint element</dt><dd><code class="lab-selector">img#hero</code> <code class="lab-snippet">&lt;img id=&quot;hero&quot; src=&quot;/img/hero.png&quot; alt=&quot;&quot;&gt;</code></dd>',
    );
    expect(section).toContain('<dt>Accessibility (axe-core)</dt><dd>67/100: 1 of 3 rules checked violated. <a href="#category-accessibility">See each rule</a>.</dd>');
    const shifts = between(section, '<table class="list-table lab-shifts">', '</table>');
    expect([...shifts.matchAll(/<td data-label="Shift">([^<]+)<\/td>/g)].map((match) => match[1])).toEqual(['0.012', '0.004']);
    expect(shifts).toContain('<code>main &gt; p:nth-of-type(2)</code>');
    expect(shifts).toContain('gone from the page');
    const tasks = between(section, '<table class="list-table lab-tasks">', '</table>');
    expect([...tasks.matchAll(/<td data-label="(?:Started at|Took)">([^<]+)<\/td>/g)].map((match) => match[1])).toEqual(['1,203 ms', '412 ms', '880 ms', '88 ms']);
  });

  it('says so when nothing shifted, no task was long, or no accessibility rule applied', () => {
    const lab = labOf(pageOf(withLab({ layout_shifts: [], long_tasks: [], accessibility: { score: null, violations: 0, rules_checked: 0 } })));
    expect(lab).toContain('Nothing on the page shifted.');
    expect(lab).toContain('No main-thread task took over 50 ms.');
    expect(lab).toContain('No accessibility rule applied to the page.');
    expect(lab).not.toContain('lab-shifts');
    expect(lab).not.toContain('lab-tasks');
  });

  it('lists what was downloaded by type, the six types and the total', () => {
    const table = between(section, '<table class="list-table lab-resources">', '</table>');
    const rows = [...table.matchAll(/<tr data-type="(\w+)">([\s\S]*?)<\/tr>/g)].map(([, type, cells]) => [
      type,
      ...[...cells.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].slice(1).map((cell) => cell[1].replace(/<[^>]+>/g, '')),
    ]);
    expect(rows).toEqual([
      ['document', '1', '4.0 KiB'],
      ['script', '3', '50.8 KiB'],
      ['stylesheet', '1', '8.9 KiB'],
      ['image', '1', '15.6 KiB'],
      ['font', '0', '0 bytes'],
      ['other', '1', '0 bytes'],
      ['total', '7', '79.3 KiB'],
    ]);
  });

  it('escapes what came from the page, and folds nothing away from paper', () => {
    const hostile = pageOf(withLab({
      lcp_element: { selector: 'img[alt="<script>x</script>"]', snippet: '<img src=x onerror="window.__pwned=1">' },
      layout_shifts: [{ value: 0.3, selector: '<b>bold</b>' }],
    }));
    const lab = labOf(hostile);
    expect(lab).toContain('img[alt=&quot;&lt;script&gt;x&lt;/script&gt;&quot;]');
    expect(lab).toContain('&lt;img src=x onerror=&quot;window.__pwned=1&quot;&gt;');
    expect(lab).toContain('&lt;b&gt;bold&lt;/b&gt;');
    expect(hostile).not.toContain('<img src=x');
    expect(hostile).not.toContain('<b>bold</b>');
    expectNoInlineCode(hostile);
    expect(lab).not.toContain('<details');
  });
});

describe('the Accessibility category', () => {
  const body = pageOf();

  it('is shown with its checks like any category, failed first, and has a gauge', () => {
    const category = between(body, '<section class="category" id="category-accessibility"', '</section>');
    expect(category).toContain('<h2 id="category-accessibility-heading">Accessibility</h2>');
    expect(category).toContain('1 failed · 2 passed · 3 not applicable');
    const cards = [...category.matchAll(/<li class="check check--([a-z-]+)" id="check-([a-z0-9_]+)"/g)].map((match) => ({ status: match[1], id: match[2] }));
    expect(cards.map((card) => card.status)).toEqual(['failed', 'passed', 'passed', 'not-applicable', 'not-applicable', 'not-applicable']);
    expect(cards[0].id).toBe('a11y_image_alt');
    expect(cards.map((card) => card.id).sort()).toEqual(Object.keys(LAB_RESULTS).filter((id) => id.startsWith('a11y_')).sort());
    expect(category).toContain(checksById.get('a11y_image_alt')!.failureTitle);
    expect(category).toContain('img#hero');
    const gauges = between(body, '<ul class="gauges">', '</ul>');
    expect(gauges).toContain('data-category="accessibility"');
    expect(gauges).toContain('aria-label="Accessibility: 67 out of 100"');
  });

  it('on paper: the passed rules a row each, those that do not apply a row per reason with their count', () => {
    const table = between(between(body, 'id="category-accessibility"', '</section>'), '<table class="settled-checks print-only">', '</table>');
    const rows = [...table.matchAll(/<tr><td>([\s\S]*?)<\/tr>/g)].map((row) => row[1].replace(/<[^>]+>/g, '').replace(/\s+/g, ' ').trim());
    const title = (id: string) => escapeHtml(checksById.get(id)!.title);
    expect(rows).toEqual([
      // In the registry's order (axe-core's).
      `✓ Passed${title('a11y_document_title')}High`,
      `✓ Passed${title('a11y_html_has_lang')}High`,
      expect.stringMatching(new RegExp(`^– Not applicable${title('a11y_color_contrast')} \\(axe-core could only mark this rule as needing review`)),
      '– Not applicable2 rules (No element on the page this rule applies to.)',
    ]);
    // The other categories keep a row per check.
    const performance = between(between(body, 'id="category-performance"', '</section>'), '<table class="settled-checks print-only">', '</table>');
    expect(performance.match(/<tr><td>/g)).toHaveLength(3);
  });

  it('its failed checks can be what to fix first, linked to their card', () => {
    const fixFirst = between(body, '<section class="fix-first"', '</section>');
    expect(fixFirst).toContain('href="#check-a11y_image_alt"');
    expect(body).toContain('id="check-a11y_image_alt"');
  });
});

describe('a run without a lab audit', () => {
  // What every report without lab=1 has: the lab checks, not applicable, and `lab` null.
  const results = Object.fromEntries([
    ['title', LAB_RESULTS.title],
    ...[...checksById.values()]
      .filter((check) => check.category === 'accessibility' || check.id === 'largest_contentful_paint')
      .map((check) => [check.id, resultOf(check.id, null, { reason: NO_LAB_AUDIT_REASON })]),
  ]);

  it.each([
    ['lab null', labReport(labAnalysis({ results, lab: null }))],
    ['lab absent (a report made before lab audits)', { ...labReport(labAnalysis({ results })), lab: undefined }],
  ])('%s: no Lab section, no Accessibility category or gauge; the lab metrics stay under Performance', (_, report) => {
    const body = pageOf(report);
    expect(body).not.toContain('id="lab"');
    expect(body).not.toContain('id="category-accessibility"');
    expect(body).not.toContain('data-category="accessibility"');
    expect(body).not.toContain('id="check-a11y_');
    expect(body).toContain('data-category="performance"');
    const performance = between(body, '<section class="category" id="category-performance"', '</section>');
    expect(performance).toContain('id="check-largest_contentful_paint"');
    expect(performance).toContain(escapeHtml(NO_LAB_AUDIT_REASON));
  });
});
