// `pagegrade analyze` on a page whose Product is broken, in-process through runCli against a loopback
// site: --json carries `structured_data`, the SARIF file has a result per rich-result error at the
// line of the page it is on, and a budget's must_pass takes rich_results. And --json from analyses
// made by hand: `structured_data` is there, null when the page has none.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderJson } from '../../src/cli/analyze-output.ts';
import type { StructuredDataReport } from '../../src/structured/structured-types.ts';
import { structuredAnalysis } from '../support/cli-structured-results.ts';
import { goodPage, html, startSite, type Site } from '../support/site-server.ts';
import { LOOPBACK } from './run-binary.ts';
import { runInProcess } from './run-cli.ts';
import { sarifSchemaErrors } from './schemas.ts';

/** A Product whose only offer has a price in words: Google's Product snippets need a number there. */
const PRODUCT = `<script type="application/ld+json">
{
  "@context": "https://schema.org",
  "@type": "Product",
  "name": "Mountain coffee, 1 kg",
  "image": "https://cdn.example.com/coffee.webp",
  "offers": {
    "@type": "Offer",
    "price": "about ninety euros",
    "priceCurrency": "EUR"
  }
}
</script>`;
const PAGE = goodPage().replace('</body>', `${PRODUCT}\n</body>`);
/** 1-based lines of the page as served: where the Product starts and where its price is. */
const lineOf = (text: string) => PAGE.split('\n').findIndex((line) => line.includes(text)) + 1;
const PRODUCT_LINE = lineOf('"@type": "Product"') - 2;
const PRICE_LINE = lineOf('"price": "about ninety euros"');

interface SarifResult {
  ruleId: string;
  level: string;
  message: { text: string };
  locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }[];
  partialFingerprints: Record<string, string>;
}

let site: Site;
let directory: string;

beforeAll(async () => {
  site = await startSite({ '/product': html(PAGE) });
  directory = await mkdtemp(join(tmpdir(), 'pagegrade-structured-'));
});

afterAll(async () => {
  await site.close();
  await rm(directory, { recursive: true, force: true });
});

describe('analyze a page with a broken Product', () => {
  it('--json has its structured_data, the SARIF a rich_results result at the price\'s line, must_pass rich_results breaks', async () => {
    const url = site.url('/product');
    const budget = join(directory, 'budget.json');
    await writeFile(budget, JSON.stringify({ must_pass: ['rich_results'] }));
    const sarif = join(directory, 'product.sarif');
    const run = await runInProcess(['analyze', url, '--json', '--output', sarif, '--budget', budget], LOOPBACK);

    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain(`pagegrade: gate failed: --budget must_pass rich_results: ${url} failed it`);

    const report = JSON.parse(run.stdout);
    expect(report.results.rich_results).toMatchObject({ passed: false, importance: 'medium', category: 'miscellaneous' });
    expect(report.structured_data.items).toContainEqual({ format: 'json-ld', type: 'Product', line: PRODUCT_LINE });
    expect(report.structured_data.errors).toBeGreaterThan(0);

    const log = JSON.parse(await readFile(sarif, 'utf8'));
    expect(sarifSchemaErrors(log)).toEqual([]);
    const results: SarifResult[] = log.runs[0].results.filter((result: SarifResult) => result.ruleId === 'rich_results');
    const price = results.find((result) => result.message.text.startsWith('Product snippets (Product), offers.price: '));
    expect(price, JSON.stringify(results, null, 2)).toBeDefined();
    expect(price!.level).toBe('warning');
    expect(price!.locations[0].physicalLocation).toEqual({
      artifactLocation: { uri: `127.0.0.1%3A${new URL(url).port}/product` },
      region: { startLine: PRICE_LINE },
    });
    // As many results as rich-result errors, each its own alert.
    expect(results).toHaveLength(report.structured_data.errors);
    const fingerprints = results.map((result) => result.partialFingerprints['pagegradeCheck/v1']);
    expect(new Set(fingerprints).size).toBe(fingerprints.length);
  });
});

describe('--json: structured_data', () => {
  const STRUCTURED: StructuredDataReport = {
    schema_org_version: '30.0',
    items: [{ format: 'json-ld', type: 'Product', line: 14 }],
    rich_results: [],
    errors: 0,
    warnings: 0,
    validation_errors: 0,
  };

  it('is the report field as the analysis has it, after results, null when the page has none', () => {
    const json = JSON.parse(renderJson([{ url: 'https://shop.example/p/1', analysis: { ...structuredAnalysis(), structuredData: STRUCTURED } }]));
    expect(json.structured_data).toEqual(STRUCTURED);
    expect(Object.keys(json)).toEqual(['url', 'result', 'score', 'issues', 'page', 'results', 'structured_data', 'generated_at']);
    for (const structuredData of [null, undefined]) {
      expect(JSON.parse(renderJson([{ url: 'https://shop.example/p/1', analysis: { ...structuredAnalysis(), structuredData } }]))).toHaveProperty('structured_data', null);
    }
  });
});
