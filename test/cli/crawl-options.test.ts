// `pagegrade crawl`'s options for scope, headers, user agent, list mode and external links: how each is
// read into the crawl service's start input, and the usage errors (exit 2) found before anything is
// crawled or requested.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCommandArgs, UsageError } from '../../src/cli/command.ts';
import { crawl } from '../../src/cli/commands/crawl.ts';
import { crawlUsageError, readCrawlOptions, urlsInList } from '../../src/cli/crawl-options.ts';
import { ValidationError } from '../../src/services/errors.ts';
import { html, startSite, type Site } from '../support/site-server.ts';
import { LOOPBACK } from './run-binary.ts';
import { runInProcess } from './run-cli.ts';

let site: Site;
let directory: string;

beforeAll(async () => {
  site = await startSite({ '/': html('<!doctype html><html lang="en"><head><title>Home</title></head><body><a href="/a">a</a></body></html>') });
  directory = await mkdtemp(join(tmpdir(), 'pagegrade-crawl-options-'));
});

afterAll(async () => {
  await site?.close();
  await rm(directory, { recursive: true, force: true });
});

const optionsOf = (...argv: string[]) => readCrawlOptions(parseCommandArgs(crawl, argv));
const startOf = async (...argv: string[]) => (await optionsOf(...argv)).start;
const file = async (name: string, text: string) => {
  const path = join(directory, name);
  await writeFile(path, text);
  return path;
};

describe('crawl options as the start input', () => {
  it('reads --include, --exclude and --strip-params repeatable, each value comma-separated', async () => {
    const start = await startOf(
      'https://example.com/', '--include', '/blog/**,/shop/*', '--include', '/about', '--exclude', '/blog/drafts/**',
      '--strip-params', 'utm_*, sessionid', '--strip-params', 'ref,',
    );
    expect(start).toMatchObject({
      url: 'https://example.com/',
      include: ['/blog/**', '/shop/*', '/about'],
      exclude: ['/blog/drafts/**'],
      stripParams: ['utm_*', 'sessionid', 'ref'],
    });
    const plain = await startOf('https://example.com/');
    expect(plain).toMatchObject({ include: undefined, exclude: undefined, stripParams: undefined, headers: undefined, userAgent: undefined, urls: undefined, external: true });
  });

  it('reads --header as the service\'s lines, --user-agent and --no-external', async () => {
    const start = await startOf('https://example.com/', '--header', 'Cookie: staging=1', '--header', 'Authorization: Basic abc', '--user-agent', 'googlebot_smartphone', '--no-external');
    expect(start).toMatchObject({ headers: 'Cookie: staging=1\nAuthorization: Basic abc', userAgent: 'googlebot_smartphone', external: false });
  });

  it('refuses a header by the service\'s rules before anything is opened, never quoting its value', async () => {
    for (const [header, name] of [['Host: s3cr3t.example', 'Host'], ['user-agent: s3cr3t', 'user-agent'], ['Bad Name: s3cr3t', 'Bad Name']]) {
      const error = await optionsOf('https://example.com/', '--header', 'Cookie: a=1', '--header', header).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(UsageError);
      expect((error as Error).message).toMatch(/^The --header /);
      expect((error as Error).message).toContain(name);
      expect((error as Error).message).not.toContain('s3cr3t');
    }
    const repeated = await optionsOf('https://example.com/', '--header', 'Cookie: a=1', '--header', 'cookie: b=2').catch((caught: unknown) => caught);
    expect((repeated as Error).message).toBe('The --header cookie is given more than once (names are case-insensitive).');
  });

  it('reads --urls: one URL a line, blank and # lines skipped, and then no start URL', async () => {
    const path = await file('urls.txt', '\uFEFF# the shop\nhttps://example.com/a\n\n   \n  https://example.com/b  \r\n#https://example.com/c\nhttps://other.example/\n');
    expect(await startOf('--urls', path)).toMatchObject({ url: undefined, urls: ['https://example.com/a', 'https://example.com/b', 'https://other.example/'] });
    expect(urlsInList('# only a comment\n\n')).toEqual([]);
  });

  it.each([
    [['https://example.com/', '--urls', 'list.txt'], 'Give either a start URL or --urls <file>, not both.'],
    [[], 'Give exactly one start URL (or --urls <file>).'],
    [['https://a.example/', 'https://b.example/'], 'Give exactly one start URL (or --urls <file>).'],
    [['https://example.com/', '--user-agent', 'curl'], '--user-agent must be one of: default, desktop, mobile, googlebot_smartphone, googlebot_desktop.'],
    [['https://example.com/', '--header', 'Authorization Basic s3cr3t'], `--header must be 'Name: value'; one --header has no ":".`],
    [['https://example.com/', '--fail-on-regression'], '--fail-on-regression needs --compare <file>: an earlier `crawl --json` output to compare with.'],
    [['https://example.com/', '--output', 'crawl.txt'], '--output crawl.txt: cannot tell the format from the name; end it in .json, .html, .junit.xml, .xml, .sarif or .sarif.json, or put --format json|html|junit|sarif before it.'],
  ])('%j is a usage error', async (argv, message) => {
    await expect(optionsOf(...argv)).rejects.toStrictEqual(new UsageError(message));
  });

  it('refuses a --urls file that lists nothing or cannot be read', async () => {
    const empty = await file('empty.txt', '# nothing yet\n\n');
    await expect(optionsOf('--urls', empty)).rejects.toStrictEqual(new UsageError(`--urls ${empty} lists no URL (one a line; blank lines and # lines are skipped).`));
    const missing = join(directory, 'missing.txt');
    await expect(optionsOf('--urls', missing)).rejects.toThrow(new RegExp(`^Cannot read --urls ${missing}: ENOENT`));
  });
});

describe('what the crawl service refuses, in the options\' words', () => {
  it.each([
    ['max_pages', 'The max_pages must be an integer from 1 to 10000.', 'The --max-pages must be an integer from 1 to 10000.'],
    ['include', 'The include pattern "blog" must start with / or *.', 'The --include pattern "blog" must start with / or *.'],
    ['strip_params', 'The strip_params may hold at most 50 names.', 'The --strip-params may hold at most 50 names.'],
    ['headers', 'The headers may not name Host (hop-by-hop or framing).', 'The --header may not name Host (hop-by-hop or framing).'],
    ['headers', 'Host may not be sent.', '--header: Host may not be sent.'],
    ['headers', "The header Host cannot be set: it is the connection's own.", "The --header Host cannot be set: it is the connection's own."],
    ['urls', 'The urls must be at most max_pages (100); 120 are given.', 'The --urls must be at most --max-pages (100); 120 are given.'],
    ['url', 'The url cannot be crawled: 127.0.0.1 is a loopback address', 'The url cannot be crawled: 127.0.0.1 is a loopback address'],
  ])('%s: %s', (field, message, expected) => {
    expect(crawlUsageError(new ValidationError(field, message)).message).toBe(expected);
  });
});

describe('pagegrade crawl: usage errors before any request', () => {
  it('lists every new option in --help', async () => {
    const run = await runInProcess(['crawl', '--help']);
    expect(run.code).toBe(0);
    for (const option of ['--include', '--exclude', '--strip-params', '--header', '--user-agent', '--urls', '--no-external', '--output', '--budget', '--compare', '--fail-on-regression']) {
      expect(run.stdout, option).toContain(`  ${option} `);
    }
  });

  it('exits 2 for a start URL with --urls, a bad preset, or --fail-on-regression alone, and requests nothing', async () => {
    const list = await file('list.txt', `${site.url('/')}\n`);
    const cases: [string[], string][] = [
      [[site.url('/'), '--urls', list], 'Give either a start URL or --urls <file>, not both.'],
      [[site.url('/'), '--user-agent', 'robot'], '--user-agent must be one of: default, desktop'],
      [[site.url('/'), '--fail-on-regression'], '--fail-on-regression needs --compare <file>'],
      [['--urls', join(directory, 'absent.txt')], 'Cannot read --urls'],
    ];
    for (const [argv, message] of cases) {
      const run = await runInProcess(['crawl', ...argv, '--no-external'], LOOPBACK);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(message);
    }
    expect(site.requests).toEqual([]);
  });

  it('exits 2 on a refused --header, naming --header and the header but never its value, before any request', async () => {
    const before = site.requests.length;
    const run = await runInProcess(['crawl', site.url('/'), '--no-external', '--header', 'Cookie: ok=1', '--header', 'Host: s3cr3t-value.example'], LOOPBACK);
    expect(run.code, run.stderr).toBe(2);
    const [message] = run.stderr.split('\n');
    expect(message).toContain('--header');
    expect(message).toContain('Host');
    expect(run.stderr).not.toContain('s3cr3t-value');
    expect(run.stdout).toBe('');
    expect(site.requests.slice(before)).toEqual([]);
  });
});
