// Names the OpenAPI document's inline response and request-body schemas: @fastify/swagger lists a
// schema under components only when another one refers to it by $id, so a route's own response comes
// out inline and nameless ("Default Response", an anonymous object). A schema given a `title`
// (schemas/common.ts Naming) moves into components.schemas under that title and is referred to there,
// so generated clients get named types (ReportResponse, ReportList, ...).

type Json = Record<string, unknown>;

/** Moves titled schemas of responses and request bodies into components.schemas, in place. */
export function nameTitledSchemas(document: Json): Json {
  const components = ((document.components ??= {}) as Json);
  const schemas = ((components.schemas ??= {}) as Json);
  for (const operations of Object.values((document.paths ?? {}) as Record<string, Json>)) {
    for (const operation of Object.values(operations) as Json[]) {
      if (operation === null || typeof operation !== 'object') continue;
      for (const response of Object.values((operation.responses ?? {}) as Record<string, Json>)) nameContent(response, schemas);
      if (operation.requestBody) nameContent(operation.requestBody as Json, schemas);
    }
  }
  return document;
}

function nameContent(holder: Json, schemas: Json): void {
  for (const media of Object.values((holder.content ?? {}) as Record<string, Json>)) {
    const schema = media.schema as Json | undefined;
    const title = schema?.title;
    if (typeof title !== 'string') continue;
    schemas[title] ??= schema;
    media.schema = { $ref: `#/components/schemas/${title}` };
    if (holder.description === 'Default Response' && typeof schema?.description === 'string') holder.description = schema.description;
  }
}
