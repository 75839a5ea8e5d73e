import { describe, expect, it } from 'vitest';
import type { Crawl, CrawlIssue } from '../services/crawl-view.ts';
import { diffCrawls, MAX_LISTED, pagesToJudge, regressionReasons, StatusChanges, type CrawlSnapshot } from './crawl-diff.ts';

const at = (path: string) => `https://shop.test${path}`;

function crawlOf(fields: Partial<Crawl> = {}): Crawl {
  return {
    id: 1, url: at('/'), project: 'shop.test', organization: 1, state: 'done', max_pages: 100, max_depth: 10, sitemap: 1, privacy: 0, render: 0,
    pages_found: 3, pages_crawled: 3, pages_failed: 0, requests: 10, limit_reached: false, pages_unvisited: 0,
    score: 80, result: 'decent', issues: { high: 0, medium: 0, low: 0 }, error: null,
    created_at: '2026-01-01T00:00:00.000Z', started_at: '2026-01-01T00:00:00.000Z', finished_at: '2026-01-01T00:01:00.000Z',
    mode: 'spider', trigger: 'create', previous_crawl_id: null, external: 1, external_checked: 0,
    include: [], exclude: [], strip_params: [], header_names: [], user_agent: 'default', schedule: 'off', next_run_at: null, lab: null,
    ...fields,
  };
}

const issue = (id: string, importance: string, items: unknown[], count = items.length): CrawlIssue => ({ id, importance, count, items });

function snapshot(paths: Record<string, number | null>, issues: CrawlIssue[], fields: Partial<Crawl> = {}): CrawlSnapshot {
  return { crawl: crawlOf(fields), issues, visited: new Map(Object.entries(paths).map(([path, status]) => [at(path), status])) };
}

const broken = (path: string, linkedFrom: string[]) => ({ url: at(path), status_code: 404, error: null, linked_from: linkedFrom.map(at), linked_from_count: linkedFrom.length });

describe('diffCrawls', () => {
  it('says which findings are new, fixed, persisting or not comparable, keyed by url with the linking pages', () => {
    const from = snapshot({ '/': 200, '/a': 200, '/gone': 404, '/old': 404, '/b': 200 }, [
      issue('broken_links', 'high', [broken('/gone', ['/']), broken('/old', ['/a']), broken('/kept', ['/']), broken('/far', ['/b'])]),
    ], { id: 7 });
    // /b was not visited again: the finding it linked from cannot be judged.
    const to = snapshot({ '/': 200, '/a': 200, '/gone': 200, '/new': 500 }, [
      issue('broken_links', 'high', [broken('/kept', ['/']), { ...broken('/new', ['/a']), status_code: 500 }]),
    ], { id: 9, score: 74 });
    const diff = diffCrawls(from, to);
    expect(diff.issues).toEqual([{
      id: 'broken_links',
      importance: 'high',
      new: [{ ...broken('/new', ['/a']), status_code: 500 }],
      fixed: [broken('/gone', ['/']), broken('/old', ['/a'])],
      persisting: 1,
      not_comparable: 1,
    }]);
    expect(diff.score_delta).toBe(-6);
    expect(diff.from).toEqual({ id: 7, url: at('/'), score: 80, result: 'decent', issues: { high: 0, medium: 0, low: 0 }, pages_crawled: 3, limit_reached: false, finished_at: '2026-01-01T00:01:00.000Z' });
    expect(diff.to.id).toBe(9);
  });

  it('keys each site check as the contract says, judging fixed by the pages each concerns', () => {
    const visited = { '/': 200, '/a': 200, '/b': 200, '/de': 200 };
    const fromIssues = [
      issue('duplicate_titles', 'medium', [{ title: 'Shop', pages: [at('/'), at('/a')], page_count: 2 }, { title: 'Gone', pages: [at('/b'), at('/x')], page_count: 2 }]),
      issue('canonical_targets', 'high', [{ canonical: at('/c'), reason: 'answers 404', pages: [at('/a')], page_count: 1 }]),
      issue('hreflang_reciprocity', 'low', [{ page: at('/'), alternate: at('/de'), lang: 'de' }, { page: at('/'), alternate: at('/fr'), lang: 'fr' }]),
      issue('internal_nofollow', 'low', [{ page: at('/a'), target: at('/b') }]),
      issue('orphan_pages', 'medium', [{ url: at('/b') }, { url: at('/lost') }]),
      issue('future_check', 'low', [{ anything: 1 }]),
    ];
    const toIssues = [
      // Same title, other pages: the same finding.
      issue('duplicate_titles', 'medium', [{ title: 'Shop', pages: [at('/b'), at('/de')], page_count: 2 }]),
      // Same page and alternate in another language: another finding.
      issue('hreflang_reciprocity', 'low', [{ page: at('/'), alternate: at('/de'), lang: 'de-AT' }]),
      issue('internal_nofollow', 'low', [{ page: at('/a'), target: at('/b') }]),
      issue('future_check', 'low', [{ anything: 2 }]),
    ];
    const diff = diffCrawls(snapshot(visited, fromIssues), snapshot(visited, toIssues));
    const byId = Object.fromEntries(diff.issues.map((entry) => [entry.id, entry]));
    expect(diff.issues.map((entry) => entry.id)).toEqual(['canonical_targets', 'duplicate_titles', 'orphan_pages', 'future_check', 'hreflang_reciprocity', 'internal_nofollow']);
    // /x was never visited: the second title group cannot be judged.
    expect(byId.duplicate_titles).toMatchObject({ new: [], fixed: [], persisting: 1, not_comparable: 1 });
    expect(byId.canonical_targets).toMatchObject({ fixed: [fromIssues[1].items[0]], not_comparable: 0 });
    // The /fr pair names an unvisited alternate; the de pair concerns two visited pages.
    expect(byId.hreflang_reciprocity).toMatchObject({ new: [toIssues[1].items[0]], fixed: [fromIssues[2].items[0]], persisting: 0, not_comparable: 1 });
    expect(byId.internal_nofollow).toMatchObject({ new: [], fixed: [], persisting: 1, not_comparable: 0 });
    expect(byId.orphan_pages).toMatchObject({ fixed: [{ url: at('/b') }], not_comparable: 1 });
    // An unknown check: its whole item is the key, and it names no page, so a gone one is fixed.
    expect(byId.future_check).toMatchObject({ new: [{ anything: 2 }], fixed: [{ anything: 1 }], persisting: 0, not_comparable: 0 });
  });

  it('keys broken_external_links by url with pages its linked_from, not comparable when the later crawl did not check them', () => {
    const external = (url: string, from: string[]) => ({ url, status_code: 404, error: null, linked_from: from.map(at), linked_from_count: from.length });
    const from = snapshot({ '/': 200, '/a': 200 }, [issue('broken_external_links', 'medium', [external('https://x.test/1', ['/']), external('https://x.test/2', ['/a', '/z'])])]);
    const checked = diffCrawls(from, snapshot({ '/': 200, '/a': 200 }, []));
    expect(checked.issues).toEqual([{ id: 'broken_external_links', importance: 'medium', new: [], fixed: [external('https://x.test/1', ['/'])], persisting: 0, not_comparable: 1 }]);
    const unchecked = diffCrawls(from, snapshot({ '/': 200, '/a': 200 }, [], { external: 0 }));
    expect(unchecked.issues[0]).toMatchObject({ fixed: [], not_comparable: 2 });
  });

  it('calls nothing fixed that the later crawl may have kept past its stored items', () => {
    const items = (from: number, n: number) => Array.from({ length: n }, (_, i) => broken(`/gone-${from + i}`, ['/']));
    const from = snapshot({ '/': 200 }, [issue('broken_links', 'high', items(0, 3))]);
    const to = snapshot({ '/': 200 }, [issue('broken_links', 'high', items(1, 2), 250)]);
    expect(diffCrawls(from, to).issues[0]).toMatchObject({ fixed: [], persisting: 2, not_comparable: 1 });
  });

  it('lists at most 100 new and fixed findings, counting the rest', () => {
    const many = (prefix: string) => Array.from({ length: MAX_LISTED + 20 }, (_, i) => ({ url: at(`/${prefix}-${i}`), depth: 5 }));
    const visited = Object.fromEntries(many('old').map((item) => [new URL(item.url).pathname, 200]));
    const diff = diffCrawls(snapshot(visited, [issue('deep_pages', 'low', many('old'))]), snapshot(visited, [issue('deep_pages', 'low', many('new'))]));
    expect(diff.issues[0].new).toHaveLength(MAX_LISTED);
    expect(diff.issues[0].new[0]).toEqual({ url: at('/new-0'), depth: 5 });
    expect(diff.issues[0].fixed).toHaveLength(MAX_LISTED);
    expect(diff.issues[0].persisting).toBe(0);
  });

  it('counts pages added and removed and lists the first 100 status changes by URL', () => {
    const from: Record<string, number | null> = { '/kept': 200, '/removed': 200, '/failing': 200 };
    const to: Record<string, number | null> = { '/kept': 200, '/added': 200, '/other': 404, '/failing': null };
    for (let i = MAX_LISTED + 30; i > 0; i--) {
      from[`/z-${String(i).padStart(3, '0')}`] = 200;
      to[`/z-${String(i).padStart(3, '0')}`] = 503;
    }
    const diff = diffCrawls(snapshot(from, []), snapshot(to, []));
    expect(diff.pages.added).toBe(2);
    expect(diff.pages.removed).toBe(1);
    expect(diff.pages.status_changed).toHaveLength(MAX_LISTED);
    expect(diff.pages.status_changed[0]).toEqual({ url: at('/failing'), from: 200, to: null });
    expect(diff.pages.status_changed[1]).toEqual({ url: at('/z-001'), from: 200, to: 503 });
    expect(diff.pages.status_changed.at(-1)!.url).toBe(at('/z-099'));
    expect(diff.issues).toEqual([]);
  });

  it('has no score delta when either crawl has no score', () => {
    expect(diffCrawls(snapshot({}, [], { score: null, result: null }), snapshot({}, [])).score_delta).toBeNull();
    expect(diffCrawls(snapshot({}, []), snapshot({}, [], { score: null, result: null })).score_delta).toBeNull();
  });
});

describe('StatusChanges', () => {
  it('keeps the first 100 changes by URL whatever order they come in', () => {
    const changes = new StatusChanges();
    const urls = Array.from({ length: 1000 }, (_, i) => at(`/p-${String(i).padStart(4, '0')}`));
    for (const url of [...urls].reverse()) changes.add(url, 200, 500);
    changes.add(at('/same'), 200, 200);
    expect(changes.first().map((change) => change.url)).toEqual(urls.slice(0, MAX_LISTED));
  });
});

describe('pagesToJudge', () => {
  it('names the pages of the findings gone from the later crawl, only those', () => {
    const from = [issue('broken_links', 'high', [broken('/gone', ['/', '/a']), broken('/kept', ['/b'])]), issue('orphan_pages', 'medium', [{ url: at('/o') }])];
    const to = [issue('broken_links', 'high', [broken('/kept', ['/c'])])];
    expect([...pagesToJudge(from, to)].sort()).toEqual([at('/'), at('/a'), at('/o')]);
  });
});

describe('regressionReasons', () => {
  const diffOf = (from: Partial<Crawl>, to: Partial<Crawl>, fromIssues: CrawlIssue[] = [], toIssues: CrawlIssue[] = []) =>
    diffCrawls(snapshot({ '/': 200 }, fromIssues, from), snapshot({ '/': 200 }, toIssues, to));

  it('gives a reason for a score drop of at least scoreDrop, a worse result and each high check with a new finding', () => {
    const diff = diffOf({ score: 81, result: 'good' }, { score: 71, result: 'decent' }, [], [
      issue('broken_links', 'high', [broken('/x', ['/']), broken('/y', ['/'])]),
      issue('canonical_targets', 'high', [{ canonical: at('/c'), reason: 'answers 404', pages: [at('/')], page_count: 1 }]),
      issue('deep_pages', 'low', [{ url: at('/deep'), depth: 6 }]),
    ]);
    expect(regressionReasons(diff, 10)).toEqual([
      'the score fell by 10 (81 → 71)',
      'the result went from good to decent',
      'broken_links has 2 new findings (high importance)',
      'canonical_targets has 1 new finding (high importance)',
    ]);
    expect(regressionReasons(diff, 11)).not.toContain('the score fell by 10 (81 → 71)');
  });

  it('is empty when nothing got worse: a smaller drop, a better result, new findings of lower importance, a persisting high one', () => {
    const high = [issue('broken_links', 'high', [broken('/x', ['/'])])];
    expect(regressionReasons(diffOf({ score: 80, result: 'decent' }, { score: 75, result: 'decent' }, high, [...high, issue('deep_pages', 'low', [{ url: at('/d'), depth: 6 }])]), 10)).toEqual([]);
    expect(regressionReasons(diffOf({ score: 60, result: 'bad' }, { score: 90, result: 'good' }), 1)).toEqual([]);
    expect(regressionReasons(diffOf({ score: null, result: null }, { score: 10, result: 'bad' }), 1)).toEqual([]);
  });
});
