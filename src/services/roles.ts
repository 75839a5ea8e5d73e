// What each role in an organisation may do (docs/organisations.md, "Roles"): every write the API
// offers names one action here, judged before anything in the organisation is looked up.
import { ROLES, type Role } from '../db/tables/organization.table.ts';

/** The least role each action needs; a role may do what every role below it may. */
const LEAST_ROLE = {
  'create reports': 'editor',
  'change reports': 'editor',
  'delete reports': 'editor',
  'delete projects': 'editor',
  'start crawls': 'editor',
  'delete crawls': 'editor',
  'share reports': 'editor',
  'share crawls': 'editor',
  'revoke share links': 'editor',
  'manage webhooks': 'admin',
  'list members': 'admin',
  'manage members': 'admin',
  'make owners': 'owner',
  'change owners': 'owner',
  'change the organisation': 'admin',
  'delete the organisation': 'owner',
  'read the audit log': 'admin',
} as const satisfies Record<string, Role>;

export type Action = keyof typeof LEAST_ROLE;

/** owner 3, admin 2, editor 1, viewer 0 */
function rank(role: Role): number {
  return ROLES.length - 1 - ROLES.indexOf(role);
}

export function roleAllows(role: Role, action: Action): boolean {
  return rank(role) >= rank(LEAST_ROLE[action]);
}

/** A read key's every request but GET and HEAD (docs/organisations.md, "API keys"), judged before the role. */
export const READ_SCOPE_REFUSAL = 'This API key can only read (scope read).';

/** A role, a scope or a bound key that does not allow the request: 403 with this sentence. */
export class ForbiddenError extends Error {}

/** Throws the 403 of the contract unless `role` may do `action`. */
export function requireRole(role: Role, action: Action): void {
  if (!roleAllows(role, action)) throw new ForbiddenError(`Your role in this organisation (${role}) cannot ${action}.`);
}
