// docs/structured-data.md lists every Google feature the judge knows, with its retirement date, so the
// user's table cannot silently fall behind the data (rich-result-features.ts).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RICH_RESULT_FEATURES } from './rich-result-features.ts';

const doc = readFileSync(new URL('../../docs/structured-data.md', import.meta.url), 'utf8');
const tableRows = doc.split('\n').filter((line) => line.startsWith('| '));

describe('docs/structured-data.md', () => {
  it('has a row for each feature, retired ones with their date', () => {
    for (const feature of RICH_RESULT_FEATURES) {
      const row = tableRows.find((line) => line.startsWith(`| ${feature.feature} |`));
      expect(row, feature.feature).toBeDefined();
      if (feature.retired !== null) expect(row).toContain(feature.retired);
    }
    expect(RICH_RESULT_FEATURES.filter((feature) => feature.retired === null)).toHaveLength(17);
  });
});
