// Request and response schemas of /api/v1/organizations/{id}/members (docs/organisations.md, "Members").
import { Type } from '@sinclair/typebox';
import { ROLES } from '../db/tables/organization.table.ts';
import { ListEnvelope, ObjectEnvelope, PaginationQuery, Timestamp, oneOf } from './common.ts';

export const MemberParams = Type.Object({
  id: Type.String({ description: 'The organisation id.' }),
  user_id: Type.String({ description: 'The member\'s account id.' }),
});

// Roles are checked by the service, so a wrong one is a 422 that lists the allowed values for this request.
const RoleField = Type.String({ maxLength: 100, description: `One of ${ROLES.join(', ')}.` });

export const AddMemberBody = Type.Object(
  {
    email: Type.String({ maxLength: 1000, description: 'The account\'s e-mail; an address with no account gets one.' }),
    role: RoleField,
  },
  { title: 'AddMember' },
);
export const UpdateMemberBody = Type.Object({ role: RoleField }, { title: 'UpdateMember' });
export const MemberListQuery = Type.Object({ page: PaginationQuery.page, per_page: PaginationQuery.per_page });

const memberFields = {
  user_id: Type.Integer(),
  email: Type.String(),
  role: oneOf(ROLES),
  added_at: Timestamp,
};
const Member = Type.Object(memberFields, { $id: 'Member' });
const AddedMember = Type.Object(
  {
    ...memberFields,
    api_key: Type.Optional(Type.String({ description: 'A new account\'s first key (scope write, not bound): shown only here.' })),
  },
  { $id: 'AddedMember' },
);

export const MemberResponse = ObjectEnvelope(Member, 200, { title: 'MemberResponse' });
export const MemberAddedResponse = ObjectEnvelope(AddedMember, 201, { title: 'MemberAdded' });
export const MemberListResponse = ListEnvelope(Member, { title: 'MemberList', description: 'The members, in the order they were added.' });
export const MemberDeletedResponse = Type.Object(
  { user_id: Type.Integer(), object: Type.Literal('member'), deleted: Type.Literal(true), status: Type.Literal(200) },
  { title: 'MemberDeleted' },
);
