// `pagegrade crawl`, in-process through runCli: a site audit without a server, its summary or JSON on
// stdout, progress on stderr, the pages as CSV, and exit codes for CI gates.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { html, linkingPage, type Site, startSite } from '../support/site-server.ts';
import { LOOPBACK } from './run-binary.ts';
import { runInProcess } from './run-cli.ts';

const page = (title: string, links: string[]) => html(linkingPage(title, links));

let site: Site;
let directory: string;

beforeAll(async () => {
  site = await startSite({
    '/': page('The home page of the coffee roastery', ['/beans', '/gone']),
    '/beans': page('Beans we roast every single day', ['/']),
    '/about': page('About the people who roast the coffee', ['/']),
  });
  directory = await mkdtemp(join(tmpdir(), 'pagegrade-crawl-cli-'));
});

afterAll(async () => {
  await site?.close();
  await rm(directory, { recursive: true, force: true });
});

describe('pagegrade crawl', () => {
  it('audits the site, prints its issues, writes the pages as CSV, and gates on issues', async () => {
    const csv = join(directory, 'pages.csv');
    const run = await runInProcess(['crawl', site.url('/'), '--max-pages', '10', '--csv', csv, '--fail-on-issues', 'high'], LOOPBACK);
    expect(run.stdout).toContain(site.url('/'));
    expect(run.stdout).toMatch(/Site: \d+ (good|decent|bad) {2}3 pages analysed, 4 URLs found, 0 failed/);
    expect(run.stdout).toContain('broken_links (1)');
    expect(run.stdout).toContain(`url: ${site.url('/gone')}; status_code: 404`);
    expect(run.stderr).toMatch(/\[crawl\] 3\/10 pages analysed, 4 URLs found/);
    expect(run.stderr).toContain('Gate failed: 1 site issue of importance high, and --fail-on-issues is high.');
    expect(run.code).toBe(1);
    const lines = (await readFile(csv, 'utf8')).split('\r\n');
    expect(lines[0]).toBe('url,status_code,depth,title,content_type,report_id,score,result,inlinks,redirect_target,error,external,links_dropped,reason');
    expect(lines.filter((line) => line !== '').map((line) => line.split(',')[0]).slice(1)).toEqual(
      ['/', '/about', '/beans', '/gone'].map((path) => site.url(path)),
    );
  });

  it('prints JSON and passes when no gate is set', async () => {
    // Its link to a social profile elsewhere is not checked (--no-external): no request leaves loopback.
    const run = await runInProcess(['crawl', site.url('/beans'), '--json', '--no-sitemap', '--max-depth', '0', '--no-external'], LOOPBACK);
    expect(run.code).toBe(0);
    const outcome = JSON.parse(run.stdout);
    // Its links to / and /about are found one click away, past max_depth: counted, never fetched.
    expect(outcome.crawl).toMatchObject({ url: site.url('/beans'), state: 'done', pages_crawled: 1, pages_found: 3, max_depth: 0, sitemap: 0, external: 0, external_checked: 0 });
    expect(outcome.pages.map((row: { url: string }) => row.url)).toEqual([site.url('/beans')]);
    expect(outcome.issues).toEqual([]);
  });

  it('exits 3 when the site cannot be crawled, and 2 on a usage error', async () => {
    const failed = await runInProcess(['crawl', site.url('/gone')], LOOPBACK);
    expect(failed.code).toBe(3);
    expect(failed.stderr).toContain('The crawl failed: No HTML page could be crawled (the start page answered 404)');
    const refused = await runInProcess(['crawl', site.url('/')]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/The url cannot be crawled: .*127\.0\.0\.1/);
    const usage = await runInProcess(['crawl', site.url('/'), '--max-pages', 'many'], LOOPBACK);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--max-pages must be a whole number.');
    expect((await runInProcess(['crawl', site.url('/'), '--max-pages', '0'], LOOPBACK)).stderr).toContain('The --max-pages must be an integer from 1 to 10000.');
  });
});
