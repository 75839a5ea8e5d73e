// Writes docs/api.md from the OpenAPI document the app serves, built on a scratch in-memory database
// (npm run docs:api).
import { writeFileSync } from 'node:fs';
import { apiDocsIntroduction, renderApiDocs, servedOpenApiDocument } from './api-docs.ts';

const document = await servedOpenApiDocument();
writeFileSync(new URL('../docs/api.md', import.meta.url), renderApiDocs(document, apiDocsIntroduction()));
const operations = Object.values(document.paths).reduce((sum, methods) => sum + Object.keys(methods).length, 0);
console.log(`docs/api.md: ${operations} operations on ${Object.keys(document.paths).length} paths`);
