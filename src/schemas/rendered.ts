// The schema of a report's and a run's `rendered` (render=1, docs/api.md): what JavaScript changed, why
// the page could not be rendered, or null when rendering was not asked for.
import { Type, type TSchema } from '@sinclair/typebox';
import { oneOf } from './common.ts';

const pair = <T extends TSchema>(schema: T, description?: string) =>
  Type.Object({ raw: schema, rendered: schema }, description ? { description } : {});
const text = Type.Union([Type.String(), Type.Null()]);
const count = Type.Integer({ minimum: 0 });

const RenderedComparison = Type.Object(
  {
    title: pair(text),
    meta_description: pair(text),
    canonical: pair(text, 'The first canonical in the head, as an absolute URL.'),
    robots: pair(text, 'The robots meta tags\' directives, lower-case, joined by ", ".'),
    h1: pair(Type.Array(Type.String())),
    links: Type.Object({
      raw: count,
      rendered: count,
      only_rendered: Type.Array(Type.String(), { maxItems: 20, description: 'Link targets only the rendered page has, internal first.' }),
      internal: Type.Object({ raw: count, rendered: count, only_rendered: count }, { description: 'The same for the page\'s own site.' }),
    }, { description: 'Distinct http(s) link targets, fragments dropped.' }),
    words: pair(count),
    json_ld_types: pair(Type.Array(Type.String())),
  },
  { description: 'The raw HTML (raw) against the DOM after JavaScript (rendered).' },
);

const RenderFailure = Type.Object({ error: Type.String({ description: 'Why the page could not be rendered; the report is made all the same.' }) });

export const Rendered = Type.Union([RenderedComparison, RenderFailure, Type.Null()], {
  description: 'With render=1: what JavaScript changed on the page, or why it could not be rendered; null when not rendered.',
});

/** The render parameter of create and regenerate. */
export const render = oneOf([0, 1] as const, {
  description: '1: also load the page in headless Chromium and report what JavaScript changes (rendered); a 422 when the server has no browser.',
  default: 0,
});
