// Found by an attack on the CLI: `analyze --json` wrote C1 controls from the page (U+009B, the one-character CSI) raw,
// where the text report strips them. They are now escaped like JSON.stringify escapes ESC, so the
// output holds no raw control a terminal could act on and the page's text survives parsing intact.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { html, startSite, type Site } from '../support/site-server.ts';
import { LOOPBACK } from './run-binary.ts';
import { runInProcess } from './run-cli.ts';

const TITLES = ['CSI \u009b31mred\u009b0m one', 'DEL \u007f, NEL \u0085, bidi \u202eevil\u202c two'];
const RAW = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

let site: Site;
beforeAll(async () => {
  const titles = TITLES.map((title) => `<title>${title}</title>`).join('');
  site = await startSite({ '/': html(`<!doctype html><html lang="en"><head>${titles}</head><body><h1>C1</h1></body></html>`) });
});
afterAll(() => site.close());

describe('analyze --json and C1 controls', () => {
  it('writes no raw C1 or bidi control, and the parsed JSON keeps the page text as it was', async () => {
    const run = await runInProcess(['analyze', site.url('/'), '--json'], LOOPBACK);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(RAW);
    expect(run.stdout).toContain('CSI \\u009b31mred\\u009b0m one');
    expect(JSON.parse(run.stdout).results.title.errors.multiple).toEqual(TITLES);
  });
});
