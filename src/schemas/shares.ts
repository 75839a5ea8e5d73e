// Request and response schemas of /api/v1/reports/{id}/shares and /api/v1/crawls/{id}/shares
// (docs/organisations.md, "Share links").
import { Type } from '@sinclair/typebox';
import { ListEnvelope, ObjectEnvelope, PaginationQuery, Timestamp } from './common.ts';

export const ShareTargetParams = Type.Object({ id: Type.String({ description: 'The report\'s or crawl\'s id, a positive integer.' }) });
export const ShareTokenParams = Type.Object({
  id: Type.String({ description: 'The report\'s or crawl\'s id, a positive integer.' }),
  token: Type.String({ description: 'The link\'s whole token, or its 8-character prefix; anything else is unknown (404).' }),
});

// The service checks the value, so any refusal is the one 422 on expires_in_days naming the range
// (a string here, as the keys' organization is: a form sends strings, JSON numbers are coerced).
export const CreateShareBody = Type.Object(
  {
    expires_in_days: Type.Optional(Type.String({ description: 'Days until the link expires: an integer from 1 to 365 (default 30).' })),
  },
  { title: 'CreateShare' },
);

export const ShareListQuery = Type.Object({ page: PaginationQuery.page, per_page: PaginationQuery.per_page });

const Prefix = Type.String({ description: 'The token\'s first 8 characters.' });
const CreatedBy = Type.Object({ email: Type.String({ description: 'The account that made the link.' }) });

const Share = Type.Object({ prefix: Prefix, expires_at: Timestamp, created_at: Timestamp, created_by: CreatedBy }, { $id: 'Share', description: 'An active share link, without its token.' });
const CreatedShare = Type.Object(
  {
    token: Type.String({ description: '256 random bits in base64url: shown only in this answer, stored only as a hash.' }),
    prefix: Prefix,
    url: Type.String({ description: '<origin>/s/<token>: the page anyone with the link may open, without sign-in.' }),
    expires_at: Timestamp,
    created_at: Timestamp,
    created_by: CreatedBy,
  },
  { $id: 'CreatedShareData' },
);

export const ShareCreatedResponse = ObjectEnvelope(CreatedShare, 201, {
  title: 'ShareCreated',
  description: 'The link, with its token and URL: store them now, they are not shown again.',
});
export const ShareListResponse = ListEnvelope(Share, { title: 'ShareList', description: 'A page of the active share links, newest first.' });
export const ShareDeletedResponse = Type.Object(
  { prefix: Type.String(), object: Type.Literal('share'), deleted: Type.Literal(true), status: Type.Literal(200) },
  { title: 'ShareDeleted', description: 'The link is revoked: its page is the Not found page from now on.' },
);
