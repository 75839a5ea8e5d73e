// docs/api.md is what the generator makes now from the OpenAPI document the app serves, and that
// document's every operation, parameter and body field is in it: a route or schema changed without
// `npm run docs:api` fails here.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiDocsIntroduction, renderApiDocs, servedOpenApiDocument, type OpenApiDocument } from '../../scripts/api-docs.ts';

const STALE = 'docs/api.md is out of date with the API\'s schemas: run `npm run docs:api` and commit the result';

describe('docs/api.md', () => {
  let document: OpenApiDocument;
  let generated: string;
  let committed: string;

  beforeAll(async () => {
    document = await servedOpenApiDocument();
    generated = renderApiDocs(document, apiDocsIntroduction());
    committed = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
  });

  it('is what `npm run docs:api` makes from the served OpenAPI document', () => {
    expect(committed, STALE).toBe(generated);
  });

  it('documents every operation with its parameters, body fields and statuses, after the introduction', () => {
    expect(generated.indexOf(apiDocsIntroduction().trim())).toBeGreaterThan(0);
    let operations = 0;
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        operations += 1;
        const heading = `### \`${method.toUpperCase()} ${path}\``;
        const start = generated.indexOf(`\n${heading}\n`);
        expect(start, heading).toBeGreaterThan(0);
        const next = generated.indexOf('\n### ', start + heading.length + 1);
        const section = generated.slice(start, next === -1 ? undefined : next);
        for (const parameter of operation.parameters ?? []) expect(section, `${heading}: ${parameter.name}`).toContain(`| \`${parameter.name}\` | ${parameter.in}`);
        const body = Object.values(operation.requestBody?.content ?? {})[0]?.schema;
        const bodySchema = body?.$ref ? document.components.schemas[String(body.$ref).split('/').pop()!] : body;
        for (const field of Object.keys(bodySchema?.properties ?? {})) expect(section, `${heading}: body ${field}`).toContain(`| \`${field}\` |`);
        for (const status of Object.keys(operation.responses)) expect(section, `${heading}: ${status}`).toMatch(new RegExp(`^\\| ${status} \\|`, 'm'));
      }
    }
    expect(operations).toBeGreaterThanOrEqual(20);
  });

  it('lists each value a parameter allows and its default', () => {
    const section = generated.slice(generated.indexOf('### `GET /api/v1/reports`'), generated.indexOf('### `POST /api/v1/reports`'));
    expect(section).toContain('| `per_page` | query | `10`, `25`, `50` or `100` | `100` |');
    expect(section).toContain('| `sort_by` | query | `id`, `generated_at`, `url`, `result` or `score` | `id` |');
  });

  it('links only to headings it has', () => {
    const anchors = new Set(
      [...generated.matchAll(/^#{1,6} (.+)$/gm)].map((match) => match[1].toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-')),
    );
    for (const [, anchor] of generated.matchAll(/\]\(#([^)]+)\)/g)) expect(anchors.has(anchor.replace(/-\d+$/, '')) || anchors.has(anchor), anchor).toBe(true);
  });
});
