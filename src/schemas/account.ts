import { Type } from '@sinclair/typebox';
import { ObjectEnvelope, Timestamp } from './common.ts';

const Account = Type.Object(
  { id: Type.Integer(), email: Type.String(), created_at: Timestamp },
  { $id: 'Account' },
);
export const AccountResponse = ObjectEnvelope(Account, 200, { title: 'AccountResponse', description: 'The account of the API key.' });
