// Why a grade is not the one the score gives, under the score: a 404 page is bad and a noindex page at
// most decent whatever they score, and the text report and the HTML file say so.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { goodPage, html, startSite, type Site } from '../support/site-server.ts';
import { LOOPBACK } from './run-binary.ts';
import { runInProcess } from './run-cli.ts';

/** Limits no loopback fetch reaches, however loaded the machine, so the pages score what they are built to. */
const PATIENT = { ...LOOPBACK, PAGEGRADE_THRESHOLDS: JSON.stringify({ max_load_time_ms: 600_000, max_ttfb_ms: 600_000 }) };
const NOINDEX_PAGE = goodPage().replace('<meta charset="utf-8">', '<meta charset="utf-8"><meta name="robots" content="noindex">');
const REASONS = {
  '/missing': 'Bad whatever the score: the page answers 404, so there is no page for search engines to index.',
  '/noindex': 'At most decent whatever the score: the page asks not to be indexed, so search engines will not index it.',
};

let site: Site;
let directory: string;

beforeAll(async () => {
  site = await startSite({ '/missing': html(goodPage('This page is gone'), 404), '/noindex': html(NOINDEX_PAGE), '/good': html(goodPage()) });
  directory = await mkdtemp(join(tmpdir(), 'pagegrade-verdict-'));
});

afterAll(async () => {
  await site.close();
  await rm(directory, { recursive: true, force: true });
});

describe.concurrent('the grade and why', () => {
  it.each(Object.entries(REASONS))('%s: the reason under the score, in the text and in the HTML file', async (path, reason) => {
    const file = join(directory, `${path.slice(1)}.html`);
    const run = await runInProcess(['analyze', site.url(path), '--output', file], PATIENT);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.split('\n');
    // A score that alone would grade the page good: the reason is what makes it worse.
    expect(lines[1]).toMatch(path === '/missing' ? /^Score (8\d|9\d|100)\/100 bad$/ : /^Score (8\d|9\d|100)\/100 decent$/);
    expect(lines[2]).toBe(reason);
    const page = await readFile(file, 'utf8');
    expect(page.split(reason)).toHaveLength(2);
    expect(page).toMatch(new RegExp(`<p class="verdict verdict--(bad|decent)">.*</p>\\s*<p class="verdict-reason">${reason}</p>`));
  });

  it('a page graded by its score: no reason', async () => {
    const run = await runInProcess(['analyze', site.url('/good')], PATIENT);
    const lines = run.stdout.split('\n');
    expect(lines[1]).toMatch(/^Score \d+\/100 good$/);
    expect(lines[2]).toMatch(/^HTTP 200 /);
  });
});
