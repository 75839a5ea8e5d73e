import { describe, expect, it } from 'vitest';
import { chooseLabPages, urlTemplate, type LabCandidate, type ReadDepth } from './lab-templates.ts';

const at = (path: string) => `https://shop.test${path}`;

interface Page {
  path: string;
  depth: number | null;
}

let ids = 0;
const candidate = ({ path }: Page): LabCandidate => ({ pageId: ++ids, url: at(path), reportId: ids, runNumber: 1 });

/** The depths' readers over pages held in memory: each depth in `order` (shuffled by the caller), in batches of `batch`. */
function depthsOf(pages: readonly Page[], batch: number, reads: { count: number } = { count: 0 }): ReadDepth[] {
  const candidates = pages.map((page) => ({ page, candidate: candidate(page) }));
  const depths = [...new Set(pages.map((page) => page.depth).filter((depth): depth is number => depth !== null))].sort((a, b) => a - b);
  const reader = (depth: number | null): ReadDepth => async function* () {
    reads.count++;
    const here = candidates.filter(({ page }) => page.depth === depth).map(({ candidate: c }) => c);
    for (let start = 0; start < here.length; start += batch) yield here.slice(start, start + batch);
  };
  return [...depths.map(reader), reader(null)];
}

/** The rule as the contract states it, over the whole site at once. */
function reference(pages: readonly Page[], labPages: number): string[] {
  const key = (page: Page) => [page.depth === null ? 1 : 0, page.depth ?? 0, at(page.path)] as const;
  const sorted = [...pages].sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    return x[0] - y[0] || x[1] - y[1] || (x[2] < y[2] ? -1 : x[2] > y[2] ? 1 : 0);
  });
  const templates = new Map<string, string[]>();
  for (const page of sorted) {
    const pattern = urlTemplate(at(page.path));
    if (!templates.has(pattern)) templates.set(pattern, []);
    templates.get(pattern)!.push(at(page.path));
  }
  const picks: string[] = [];
  for (let round = 0; picks.length < labPages; round++) {
    const of = [...templates.values()].filter((urls) => round < urls.length);
    if (of.length === 0) break;
    for (const urls of of) if (picks.length < labPages) picks.push(urls[round]);
  }
  return picks;
}

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

describe('urlTemplate', () => {
  it('replaces every run of digits in the path by {n} and drops the query', () => {
    expect(urlTemplate(at('/product/12'))).toBe('/product/{n}');
    expect(urlTemplate(at('/blog/2024/05/post-3'))).toBe('/blog/{n}/{n}/post-{n}');
    expect(urlTemplate(at('/'))).toBe('/');
    expect(urlTemplate(at('/c?page=2&id=7'))).toBe('/c');
    expect(urlTemplate(at('/v2/a1b22c333'))).toBe('/v{n}/a{n}b{n}c{n}');
  });
});

describe('chooseLabPages', () => {
  const site: Page[] = [
    { path: '/', depth: 0 },
    ...[1, 2, 3, 4, 5].map((n) => ({ path: `/product/${n}`, depth: 1 })),
    ...[1, 2, 3].map((n) => ({ path: `/blog/2024/post-${n}`, depth: n === 1 ? 1 : 2 })),
  ];

  it('takes the first page of each template in the order of their first page, then the second of each', async () => {
    const picked = await chooseLabPages(4, depthsOf(site, 2));
    expect(picked.map((page) => [page.url.slice(at('').length), page.template, page.templateRank, page.pick])).toEqual([
      ['/', '/', 0, 0],
      ['/blog/2024/post-1', '/blog/{n}/post-{n}', 1, 1],
      ['/product/1', '/product/{n}', 2, 2],
      ['/blog/2024/post-2', '/blog/{n}/post-{n}', 1, 3],
    ]);
    expect((await chooseLabPages(20, depthsOf(site, 3))).map((page) => page.url)).toEqual(reference(site, 20));
  });

  it('puts the pages without a click depth after every page with one', async () => {
    const pages: Page[] = [{ path: '/a/1', depth: null }, { path: '/z/1', depth: 3 }, { path: '/a/2', depth: 4 }, { path: '/b', depth: null }];
    expect((await chooseLabPages(3, depthsOf(pages, 1))).map((page) => page.url)).toEqual([at('/z/1'), at('/a/2'), at('/b')]);
  });

  it('reads no further depth once every slot has a template', async () => {
    const reads = { count: 0 };
    const pages: Page[] = [{ path: '/', depth: 0 }, { path: '/a', depth: 0 }, { path: '/b', depth: 1 }, { path: '/c', depth: 2 }];
    expect((await chooseLabPages(2, depthsOf(pages, 10, reads))).map((page) => page.url)).toEqual([at('/'), at('/a')]);
    // Depth 0 twice (templates, then pages): depths 1, 2 and the depth-less never.
    expect(reads.count).toBe(2);
  });

  it('chooses as the rule says whatever the order and batching within a depth (random sites)', async () => {
    const next = random(44);
    for (let round = 0; round < 60; round++) {
      const sections = ['p', 'blog', 'c', 'tag', 'a', 'x', 'y', 'z'].slice(0, 1 + Math.floor(next() * 8));
      const paths = new Set<string>();
      const pages: Page[] = [];
      const count = 1 + Math.floor(next() * 150);
      while (pages.length < count) {
        const section = sections[Math.floor(next() * sections.length)];
        const path = next() < 0.5 ? `/${section}/${Math.floor(next() * 1000)}` : `/${section}-${String.fromCharCode(97 + Math.floor(next() * 26))}${Math.floor(next() * 5)}`;
        if (paths.has(path)) continue;
        paths.add(path);
        pages.push({ path, depth: next() < 0.1 ? null : Math.floor(next() * 4) });
      }
      // Within a depth, in any order (the database reads it by id).
      const shuffled = [...pages].sort(() => next() - 0.5);
      const labPages = 1 + Math.floor(next() * 30);
      const chosen = await chooseLabPages(labPages, depthsOf(shuffled, 1 + Math.floor(next() * 7)));
      expect(chosen.map((page) => page.url), `round ${round}`).toEqual(reference(pages, labPages));
      expect(chosen.map((page) => page.pick)).toEqual(chosen.map((_, index) => index));
    }
  });

  it('chooses nothing from a crawl without a candidate', async () => {
    expect(await chooseLabPages(5, depthsOf([], 10))).toEqual([]);
  });
});
