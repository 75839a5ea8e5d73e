// Writes docs/checks.md from the check registry (npm run docs:checks).
import { writeFileSync } from 'node:fs';
import { allChecks } from '../src/checks/index.ts';
import { renderCheckDocs } from '../src/checks/check-docs.ts';

writeFileSync(new URL('../docs/checks.md', import.meta.url), renderCheckDocs(allChecks));
console.log(`docs/checks.md: ${allChecks.length} checks`);
