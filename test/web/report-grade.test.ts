// The grade explained on the report page: beside the grade, why it is not the one the score alone gives
// (an error page is bad, a page kept out of search at most decent, whatever the score), and nothing
// when the score explains it. "Points" are points of the 0-100 score only ("+5 points"); what a
// check's importance counts for is its weight. On paper, checks that passed or do not apply are one
// table per category, and a group of findings shows its first ten.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEIGHTS } from '../../src/scoring/score.ts';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { VERDICT_PAGES } from '../support/api-fixtures.ts';
import { testDialects } from '../support/databases.ts';
import { goodPage, html, startSite, type Site } from '../support/site-server.ts';
import { WebClient } from './web-client.ts';

/** The page's words as a reader meets them: no tags, no visually hidden text, spaces collapsed. */
function visibleText(body: string): string {
  return body
    .replace(/<head>[\s\S]*?<\/head>/, '')
    .replace(/<span class="visually-hidden">[^<]*<\/span>/g, '')
    .replace(/<caption class="visually-hidden">[^<]*<\/caption>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ');
}

/** The score column of the summary: the ring, the grade and (when there is one) its reason. */
function scoreColumn(body: string): string {
  return /<div class="score">([\s\S]*?)<\/div>/.exec(body)?.[1] ?? '';
}

/** A page with many images that fail the same check: more findings in one group than paper shows. */
function manyImagesPage(): string {
  const images = Array.from({ length: 14 }, (_, index) => `<img src="/photo-${index}.bmp" alt="Photo ${index}" width="10" height="10">`).join('');
  return goodPage().replace('</body>', `${images}</body>`);
}

describe.each(testDialects())('the grade on the report page [%s]', (dialect) => {
  let t: TestApp;
  let site: Site;
  let owner: Awaited<ReturnType<TestApp['createAccount']>>;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    site = await startSite({
      '/gone': html(goodPage('A well made page that is gone'), 404),
      '/hidden': VERDICT_PAGES.decent,
      '/good': VERDICT_PAGES.good,
      '/images': html(manyImagesPage()),
    });
    owner = await t.createAccount('owner');
  });
  afterAll(async () => {
    await site?.close();
    await t?.close();
  });

  async function reportPage(path: string): Promise<string> {
    const report = await t.app.services.reports.create(owner.organization, { url: site.url(path), privacy: 0 });
    const response = await new WebClient(t.app).get(`/reports/${report.id}`);
    expect(response.statusCode).toBe(200);
    return response.body;
  }

  it('says beside the grade why a page that answers 404 is bad whatever the score', async () => {
    const column = scoreColumn(await reportPage('/gone'));
    expect(column).toContain('<span class="verdict-label">Bad</span>');
    expect(column).toContain(
      '<p class="verdict-reason">Bad whatever the score: the page answers 404, so there is no page for search engines to index.</p>',
    );
  });

  it('says beside the grade why a page that asks not to be indexed is at most decent', async () => {
    const body = await reportPage('/hidden');
    const column = scoreColumn(body);
    expect(column).toContain('<span class="verdict-label">Decent</span>');
    expect(column).toContain(
      '<p class="verdict-reason">At most decent whatever the score: the page asks not to be indexed, so search engines will not index it.</p>',
    );
    // The score itself would be good: the reason is what tells the two apart.
    expect(Number(/aria-label="Score (\d+) out of 100"/.exec(column)?.[1])).toBeGreaterThanOrEqual(80);
  });

  it('says nothing more when the score explains the grade', async () => {
    const column = scoreColumn(await reportPage('/good'));
    expect(column).toContain('<span class="verdict-label">Good</span>');
    expect(column).not.toContain('verdict-reason');
  });

  it('means points of the score by "points", and calls what a check counts for its weight', async () => {
    const body = await reportPage('/hidden');
    const text = visibleText(body);
    // A number of points (not "the page it points to"): each is a gain of the score, "+5 points",
    // "+1 point" or "+less than 1 point", never a check's weight.
    const points = [...text.matchAll(/(?:\S+ than 1|\S*\d\S*) points?\b/g)].map((match) => match[0]);
    expect(points.length).toBeGreaterThan(0);
    for (const phrase of points) expect(phrase).toMatch(/^(\+\d+ points?|\+less than 1 point)$/);
    const fixes = [...body.matchAll(/<li class="fix" data-check="[^"]+">[\s\S]*?<\/li>/g)].map((match) => visibleText(match[0]));
    expect(fixes.length).toBeGreaterThan(0);
    for (const fix of fixes) {
      const importance = /(High|Medium|Low) importance \(weight (\d+)\)/.exec(fix);
      expect(importance, fix).not.toBeNull();
      expect(Number(importance![2])).toBe(WEIGHTS[importance![1].toLowerCase() as keyof typeof WEIGHTS]);
    }
    expect(text).not.toMatch(/\b(?:10|5|2) points? (?:weight|importance)/i);
  });

  it('lists passed and not applicable checks in one table per category for paper, which screens do not show', async () => {
    const body = await reportPage('/good');
    const tables = [...body.matchAll(/<table class="settled-checks print-only">([\s\S]*?)<\/table>/g)].map((match) => match[1]);
    expect(tables.length).toBe(4);
    const report = (await t.app.services.lists.reports(owner.organization, { sortBy: 'id', sort: 'desc', page: 1, perPage: 1 })).items[0];
    const shown = await t.app.services.reports.show(owner.organization, report.id);
    // Without a lab audit the page leaves the Accessibility category out (its checks apply only with one).
    expect(shown.lab).toBeNull();
    const settled = Object.values(shown.results!).filter((result) => result.passed !== false && result.category !== 'accessibility').length;
    expect(tables.join('').match(/<tr><td>/g)?.length).toBe(settled);
    expect(tables.join('')).toContain('<span class="status status--passed"><span aria-hidden="true">✓</span> Passed</span>');
    expect(tables.join('')).toContain('<span class="status status--not-applicable">');
  });

  it('marks findings past the tenth of a group as the screen\'s, and says on paper how many more there are', async () => {
    const body = await reportPage('/images');
    const group = /<li class="check check--failed" id="check-image_format">[\s\S]*?<ul class="offending-items">([\s\S]*?)<\/ul>/.exec(body)?.[1] ?? '';
    const items = [...group.matchAll(/<li( class="([^"]+)")?>/g)].map((match) => match[2] ?? '');
    expect(items.filter((className) => className === '').length).toBe(10);
    expect(items.filter((className) => className === 'screen-only').length).toBe(4);
    expect(group).toContain('<li class="more print-only">… and 4 more in the report online</li>');
  });
});
