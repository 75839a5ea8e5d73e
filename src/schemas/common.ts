// Schema building blocks shared by every route. The same schemas validate requests (ajv, with
// type coercion for form bodies and query strings) and generate the OpenAPI document.
import { Type, type Static, type TSchema } from '@sinclair/typebox';

/** A value restricted to a closed set, documented and validated as a JSON-schema enum. */
export function oneOf<const T extends readonly (string | number)[]>(
  values: T,
  options: { description?: string; default?: T[number] } = {},
) {
  const type = typeof values[0] === 'number' ? 'integer' : 'string';
  return Type.Unsafe<T[number]>({ type, enum: [...values], ...options });
}

const PER_PAGE_VALUES = [10, 25, 50, 100] as const;
const SORT_VALUES = ['desc', 'asc'] as const;
const MAX_PAGE = 1_000_000_000;

export const PaginationQuery = {
  sort: Type.Optional(oneOf(SORT_VALUES, { description: 'Sort direction.', default: 'desc' })),
  per_page: Type.Optional(oneOf(PER_PAGE_VALUES, { description: 'Items per page.', default: 100 })),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1, description: 'Page number, from 1.' })),
  search: Type.Optional(Type.String({ maxLength: 2048, description: 'Case-insensitive substring; % _ and \\ are literal.' })),
};

export const Timestamp = Type.String({ format: 'date-time', description: 'ISO-8601 UTC with milliseconds.' });

const LIST_FORMATS = ['json', 'csv'] as const;

/** `format` of a list that can also be exported (docs/api.md, "Lists and pagination"). */
export const ListFormatQuery = {
  format: Type.Optional(
    oneOf(LIST_FORMATS, {
      description:
        'json: one page in the list envelope. csv: every matching row (same filters, search and sort; page and per_page ' +
        'ignored) as a text/csv attachment with a header line; a text cell starting with = + - @ tab or CR gets a leading \' ' +
        '(number cells are written as numbers).',
      default: 'json',
    }),
  ),
};

/**
 * The 200 of a list that can also be exported: its JSON envelope, or text/csv with format=csv. Fastify
 * picks the JSON serializer by the reply's content type; the CSV is a stream and is not serialized.
 */
export function listOrCsvResponse<T extends TSchema>(envelope: T, csvDescription: string) {
  return {
    description: envelope.description ?? 'The list.',
    content: {
      'application/json': { schema: envelope },
      'text/csv': { schema: Type.String({ description: csvDescription }) },
    },
  };
}

export const ErrorBody = Type.Object(
  { message: Type.String(), status: Type.Integer() },
  { $id: 'Error', description: 'Every error: a message for people and the HTTP status.' },
);

/** The 401 of every authenticated route: Error's fields and how to authenticate (docs/api.md, "Authentication"). */
export const UnauthenticatedBody = Type.Object(
  {
    message: Type.Literal('Unauthenticated.'),
    hint: Type.String({ description: 'What to send: the API key as a bearer token in the Authorization header.' }),
    status: Type.Literal(401),
  },
  { $id: 'Unauthenticated', description: 'No API key, or one that is unknown or revoked.' },
);

export const ValidationErrorBody = Type.Object(
  {
    message: Type.Literal('The given data was invalid.'),
    errors: Type.Record(Type.String(), Type.Array(Type.String())),
    status: Type.Literal(422),
  },
  { $id: 'ValidationError', description: 'Each invalid field with sentences a person can act on.' },
);

const ListLinks = Type.Object({
  first: Type.String(),
  last: Type.String(),
  prev: Type.Union([Type.String(), Type.Null()]),
  next: Type.Union([Type.String(), Type.Null()]),
});

const ListMeta = Type.Object({
  current_page: Type.Integer(),
  from: Type.Union([Type.Integer(), Type.Null()]),
  last_page: Type.Integer(),
  path: Type.String(),
  per_page: Type.Integer(),
  to: Type.Union([Type.Integer(), Type.Null()]),
  total: Type.Integer(),
});

/**
 * An envelope schema's name and description, for the OpenAPI document: a titled response schema is
 * listed under that name in components.schemas (plugins/openapi.ts), so clients get named types.
 */
export interface Naming {
  title?: string;
  description?: string;
}

export function ObjectEnvelope<T extends TSchema>(data: T, status: 200 | 201 | 202 = 200, naming: Naming = {}) {
  return Type.Object({ data, status: Type.Literal(status) }, naming);
}

export function ListEnvelope<T extends TSchema>(item: T, naming: Naming = {}) {
  return Type.Object({ data: Type.Array(item), links: ListLinks, meta: ListMeta, status: Type.Literal(200) }, naming);
}

/** Error responses every authenticated route can give, for the OpenAPI document. */
export const commonErrorResponses = {
  401: { $ref: 'Unauthenticated#' },
  422: { $ref: 'ValidationError#' },
  429: { $ref: 'Error#' },
} as const;

