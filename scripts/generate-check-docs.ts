// Writes docs/checks.md from the check registry (npm run docs:checks).
import { writeFileSync } from 'node:fs';
import { allChecks } from '../src/checks/index.ts';
import { siteChecks } from '../src/crawl/site-checks/index.ts';
import { renderCheckDocs } from '../src/checks/check-docs.ts';
import { WEIGHTS } from '../src/scoring/score.ts';

writeFileSync(new URL('../docs/checks.md', import.meta.url), renderCheckDocs(allChecks, siteChecks, WEIGHTS));
console.log(`docs/checks.md: ${allChecks.length} checks, ${siteChecks.length} site checks`);
