// Request and response schemas of /api/v1/keys (docs/organisations.md, "API keys").
import { Type } from '@sinclair/typebox';
import { ListEnvelope, ObjectEnvelope, PaginationQuery, Timestamp } from './common.ts';

export const KeyPrefixParams = Type.Object({ prefix: Type.String({ maxLength: 200, description: 'The key\'s 12-character prefix (or the whole key).' }) });

// Scope and organisation are checked by the service, so each refusal is a 422 naming the field.
export const CreateKeyBody = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 1000, description: '1 to 100 characters.' })),
    scope: Type.Optional(Type.String({ maxLength: 100, description: 'read or write (default).' })),
    organization: Type.Optional(Type.String({ maxLength: 100, description: 'The id of an organisation you are a member of: the key works only there.' })),
  },
  { title: 'CreateKey' },
);

export const KeyListQuery = Type.Object({ page: PaginationQuery.page, per_page: PaginationQuery.per_page });

const keyFields = {
  prefix: Type.String({ description: 'The first 12 characters.' }),
  name: Type.Union([Type.String(), Type.Null()]),
  scope: Type.Union([Type.Literal('write'), Type.Literal('read')]),
  organization: Type.Union([Type.Integer(), Type.Null()], { description: 'Bound to this organisation; null: acts where the request says.' }),
  created_at: Timestamp,
  last_used_at: Type.Union([Timestamp, Type.Null()]),
};
const Key = Type.Object(keyFields, { $id: 'ApiKey' });
const CreatedKey = Type.Object(
  { ...keyFields, api_key: Type.String({ description: 'The secret: shown only in this answer, stored only as a hash.' }) },
  { $id: 'CreatedApiKey' },
);

export const KeyCreatedResponse = ObjectEnvelope(CreatedKey, 201, { title: 'KeyCreated' });
export const KeyListResponse = ListEnvelope(Key, { title: 'KeyList', description: 'The caller\'s active keys, oldest first.' });
export const KeyDeletedResponse = Type.Object(
  { prefix: Type.String(), object: Type.Literal('key'), deleted: Type.Literal(true), status: Type.Literal(200) },
  { title: 'KeyDeleted' },
);
