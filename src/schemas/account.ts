import { Type } from '@sinclair/typebox';
import { ObjectEnvelope, Timestamp } from './common.ts';

const Key = Type.Object(
  {
    prefix: Type.String({ description: 'The key\'s first 12 characters.' }),
    name: Type.Union([Type.String(), Type.Null()]),
    scope: Type.Union([Type.Literal('write'), Type.Literal('read')]),
    organization: Type.Union([Type.Integer(), Type.Null()], { description: 'The organisation the key is bound to; null: not bound.' }),
  },
  { description: 'The key the request was made with.' },
);

const Account = Type.Object(
  { id: Type.Integer(), email: Type.String(), created_at: Timestamp, key: Key },
  { $id: 'Account' },
);
export const AccountResponse = ObjectEnvelope(Account, 200, { title: 'AccountResponse', description: 'The account of the API key.' });
