import { expect, it } from 'vitest';
import { forEachDialect } from '../../../test/support/databases.ts';
import { answering, at, redirecting, siteOf, UNFETCHED } from './site-fixture.ts';
import { brokenLinks } from './broken-links.ts';
import { MAX_PAGES_PER_ITEM, MAX_SITE_ITEMS } from './site-check.ts';

forEachDialect('broken_links', (database) => {
  it('finds nothing when every link leads to a page that answers', async () => {
    expect(await brokenLinks.run(await siteOf(database().db, { '/': { links: ['/a'] }, '/a': {} }))).toEqual({ count: 0, items: [] });
  });

  it('names each broken target once, with its status or error and every page linking to it', async () => {
    const site = await siteOf(database().db, {
      '/': { links: ['/gone', '/down', '/moved'] },
      '/a': { links: ['/gone'] },
      '/gone': answering(404),
      '/down': { state: 'done', statusCode: null, html: false, error: 'Connection refused' },
      '/moved': redirecting('/gone-too'),
      '/gone-too': answering(410),
    });
    expect(await brokenLinks.run(site)).toEqual({
      count: 3,
      items: [
        { url: at('/gone'), status_code: 404, error: null, linked_from: [at('/'), at('/a')], linked_from_count: 2 },
        { url: at('/down'), status_code: null, error: 'Connection refused', linked_from: [at('/')], linked_from_count: 1 },
        { url: at('/moved'), status_code: 410, error: null, linked_from: [at('/')], linked_from_count: 1 },
      ],
    });
  });

  it('leaves alone URLs never fetched, broken pages nobody links to, and a 3xx that ends well', async () => {
    const site = await siteOf(database().db, { '/': { links: ['/later', '/moved'] }, '/later': UNFETCHED, '/moved': redirecting('/a'), '/a': {}, '/lost': answering(404) });
    expect((await brokenLinks.run(site)).count).toBe(0);
  });

  it('caps items and the pages named per item, keeping the counts', async () => {
    const pages: Record<string, object> = {};
    const targets = Array.from({ length: MAX_SITE_ITEMS + 5 }, (_, i) => `/gone-${String(i).padStart(3, '0')}`);
    for (let i = 0; i < MAX_PAGES_PER_ITEM + 3; i++) pages[`/from-${String(i).padStart(2, '0')}`] = { links: targets };
    for (const target of targets) pages[target] = answering(404);
    const outcome = await brokenLinks.run(await siteOf(database().db, pages));
    expect(outcome.count).toBe(MAX_SITE_ITEMS + 5);
    expect(outcome.items).toHaveLength(MAX_SITE_ITEMS);
    expect(outcome.items[0]).toMatchObject({ url: at('/gone-000'), linked_from_count: MAX_PAGES_PER_ITEM + 3 });
    expect((outcome.items[0] as { linked_from: string[] }).linked_from).toHaveLength(MAX_PAGES_PER_ITEM);
  });
});
