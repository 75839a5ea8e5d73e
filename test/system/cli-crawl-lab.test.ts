// `pagegrade crawl --lab`, in-process through runCli: the options reach the crawl as lab=1, lab_pages
// and lab_profile, and --json's crawl carries `lab`. No Chromium here (any executable passes the
// check): the audits cannot observe the pages, so none counts; the crawl still ends done. System tier:
// each audit launches that executable as the browser and waits for it to fail (seconds). What the
// audits measure is tested with a stand-in browser in test/crawl/crawl-lab.test.ts.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { html, linkingPage, startSite, type Site } from '../support/site-server.ts';
import { LOOPBACK } from '../cli/run-binary.ts';
import { runInProcess } from '../cli/run-cli.ts';

let site: Site;

beforeAll(async () => {
  site = await startSite({
    '/': html(linkingPage('The home page of the lab coffee roastery', ['/beans'])),
    '/beans': html(linkingPage('Beans the lab roastery sells every day', ['/'])),
  });
});
afterAll(() => site?.close());

it('--lab --lab-pages --lab-profile: the crawl is made with them, and --json\'s crawl carries lab', async () => {
  const run = await runInProcess(
    ['crawl', site.url('/'), '--json', '--no-external', '--no-sitemap', '--lab', '--lab-pages', '2', '--lab-profile', 'desktop'],
    { ...LOOPBACK, PAGEGRADE_CHROMIUM_PATH: process.execPath },
  );
  expect(run.code, run.stderr).toBe(0);
  const { crawl } = JSON.parse(run.stdout);
  expect(crawl).toMatchObject({ state: 'done', pages_crawled: 2 });
  expect(crawl.lab).toEqual({ profile: 'desktop', lab_pages: 2, pages: 0, templates: [] });
});

it('without --lab, --json\'s crawl has lab null', async () => {
  const run = await runInProcess(['crawl', site.url('/'), '--json', '--no-external', '--no-sitemap', '--max-depth', '0'], LOOPBACK);
  expect(run.code, run.stderr).toBe(0);
  expect(JSON.parse(run.stdout).crawl.lab).toBeNull();
});
