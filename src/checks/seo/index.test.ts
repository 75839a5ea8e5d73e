import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { seoChecks } from './index.ts';

// The SEO table of CHECKS.md, in order.
const SEO_IDS = [
  'title', 'meta_description', 'headings', 'heading_order', 'content_keywords', 'image_keywords', 'seo_friendly_url',
  '404_page', 'robots', 'robots_txt_valid', 'noindex', 'http_status', 'redirects', 'canonical', 'hreflang',
  'in_page_links', 'link_text', 'crawlable_anchors', 'language', 'favicon', 'open_graph', 'content_length', 'text_html_ratio',
];

const folder = fileURLToPath(new URL('.', import.meta.url));

describe('seoChecks', () => {
  it('lists exactly the checks of the SEO table, in its order, each once', () => {
    expect(seoChecks.map((check) => check.id)).toEqual(SEO_IDS);
    expect(new Set(seoChecks.map((check) => check.id)).size).toBe(seoChecks.length);
  });

  it('has a source file named after each id, exporting the check', async () => {
    const files = readdirSync(folder);
    for (const check of seoChecks) {
      const file = `${check.id.replace(/_/g, '-')}.ts`;
      expect(files, check.id).toContain(file);
      const module: Record<string, unknown> = await import(`./${file}`);
      expect(Object.values(module), file).toContain(check);
    }
  });

  it('gives every check category seo and metadata for people', () => {
    for (const check of seoChecks) {
      expect(check.category, check.id).toBe('seo');
      expect(['high', 'medium', 'low'], check.id).toContain(check.importance);
      for (const text of [check.title, check.failureTitle, check.description, check.howToFix]) {
        expect(text.trim().length, check.id).toBeGreaterThan(10);
      }
    }
  });
});
