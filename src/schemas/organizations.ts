// Request and response schemas of /api/v1/organizations (docs/organisations.md).
import { Type } from '@sinclair/typebox';
import { ROLES } from '../db/tables/organization.table.ts';
import { ListEnvelope, ObjectEnvelope, PaginationQuery, Timestamp, oneOf } from './common.ts';

export const OrganizationIdParams = Type.Object({ id: Type.String({ description: 'The organisation id, a positive integer.' }) });

export const CreateOrganizationBody = Type.Object(
  { name: Type.String({ maxLength: 1000, description: '1 to 100 characters (trimmed).' }) },
  { title: 'CreateOrganization' },
);

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));

export const UpdateOrganizationBody = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 1000, description: '1 to 100 characters (trimmed).' })),
    brand_name: Nullable(Type.String({ maxLength: 1000, description: '1 to 60 characters; null or empty: the server\'s brand.' })),
    brand_color: Nullable(Type.String({ maxLength: 100, description: '#rrggbb; null or empty: the server\'s colour.' })),
    brand_logo: Nullable(
      Type.String({
        maxLength: 2 * 1024 * 1024,
        description: 'A data: URL (data:<type>;base64,...) of a PNG, JPEG, WebP, GIF or SVG image of at most 1 MiB; null or empty: the server\'s logo.',
      }),
    ),
  },
  { title: 'UpdateOrganization' },
);

export const OrganizationListQuery = Type.Object({ page: PaginationQuery.page, per_page: PaginationQuery.per_page });

const Organization = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    personal: Type.Boolean({ description: 'true for an account\'s personal organisation.' }),
    role: oneOf(ROLES, { description: 'The caller\'s role in it.' }),
    brand_name: Type.Union([Type.String(), Type.Null()]),
    brand_color: Type.Union([Type.String(), Type.Null()]),
    brand_logo: Type.Union([Type.String(), Type.Null()], { description: 'An absolute URL on this server that serves the logo, without auth.' }),
    members_count: Type.Integer(),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Organization', description: 'An organisation, as one of its members sees it.' },
);

export const OrganizationResponse = ObjectEnvelope(Organization, 200, { title: 'OrganizationResponse' });
export const OrganizationCreatedResponse = ObjectEnvelope(Organization, 201, { title: 'OrganizationCreated' });
export const OrganizationListResponse = ListEnvelope(Organization, {
  title: 'OrganizationList',
  description: 'The organisations the caller is a member of, by id.',
});
export const OrganizationDeletedResponse = Type.Object(
  { id: Type.Integer(), object: Type.Literal('organization'), deleted: Type.Literal(true), status: Type.Literal(200) },
  { title: 'OrganizationDeleted' },
);
