// Each role against each write (docs/organisations.md, "Roles"): a role that may not gets the 403 that
// names it and the action, before anything is looked up (so for an id that does not exist); a role
// that may gets past it to the route's own answer (the 404 of a missing id, the 422 of a bad body).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/api-app.ts';
import { testDialects } from '../support/databases.ts';
import { body, call, type Account } from '../support/api-fixtures.ts';

const ROLES = ['viewer', 'editor', 'admin', 'owner'] as const;
type Role = (typeof ROLES)[number];
const RANK: Record<Role, number> = { viewer: 0, editor: 1, admin: 2, owner: 3 };

interface Write {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** {org}: the organisation's id */
  path: string;
  fields?: Record<string, string>;
  action: string;
  least: Role;
  /** what a role that may gets: the route's own answer to this request */
  allowed: number;
}

const WRITES: Write[] = [
  { method: 'POST', path: '/api/v1/reports', fields: { url: 'not a url' }, action: 'create reports', least: 'editor', allowed: 422 },
  { method: 'PUT', path: '/api/v1/reports/999999', fields: { privacy: '1' }, action: 'change reports', least: 'editor', allowed: 404 },
  { method: 'DELETE', path: '/api/v1/reports/999999', action: 'delete reports', least: 'editor', allowed: 404 },
  { method: 'DELETE', path: '/api/v1/projects/nothing-here.test', action: 'delete projects', least: 'editor', allowed: 404 },
  { method: 'POST', path: '/api/v1/crawls', fields: { url: 'not a url' }, action: 'start crawls', least: 'editor', allowed: 422 },
  { method: 'PUT', path: '/api/v1/crawls/999999', fields: { schedule: 'daily' }, action: 'start crawls', least: 'editor', allowed: 404 },
  { method: 'DELETE', path: '/api/v1/crawls/999999', action: 'delete crawls', least: 'editor', allowed: 404 },
  { method: 'POST', path: '/api/v1/webhooks', fields: { url: 'not a url' }, action: 'manage webhooks', least: 'admin', allowed: 422 },
  { method: 'GET', path: '/api/v1/webhooks', action: 'manage webhooks', least: 'admin', allowed: 200 },
  { method: 'DELETE', path: '/api/v1/webhooks/999999', action: 'manage webhooks', least: 'admin', allowed: 404 },
  { method: 'GET', path: '/api/v1/webhooks/999999/deliveries', action: 'manage webhooks', least: 'admin', allowed: 404 },
  { method: 'PUT', path: '/api/v1/organizations/{org}', fields: { name: '' }, action: 'change the organisation', least: 'admin', allowed: 422 },
  { method: 'GET', path: '/api/v1/organizations/{org}/members', action: 'list members', least: 'admin', allowed: 200 },
  { method: 'POST', path: '/api/v1/organizations/{org}/members', fields: { email: 'not an address', role: 'viewer' }, action: 'manage members', least: 'admin', allowed: 422 },
  { method: 'PUT', path: '/api/v1/organizations/{org}/members/999999', fields: { role: 'viewer' }, action: 'manage members', least: 'admin', allowed: 404 },
];

describe.each(testDialects())('roles against writes [%s]', (dialect) => {
  let t: TestApp;
  let organization: number;
  const members = {} as Record<Role, Account>;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    members.owner = await t.createAccount('owner');
    const created = await call(t, members.owner, 'POST', '/api/v1/organizations', { name: 'Fernhill Partners' });
    organization = body(created).data.id;
    for (const role of ['viewer', 'editor', 'admin'] as const) {
      members[role] = await t.createAccount(role);
      const added = await call(t, members.owner, 'POST', `/api/v1/organizations/${organization}/members`, { email: members[role].email, role });
      expect(added.statusCode, added.body).toBe(201);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  for (const write of WRITES) {
    for (const role of ROLES) {
      const may = RANK[role] >= RANK[write.least];
      it(`${role}: ${write.method} ${write.path} ${may ? `passes (${write.allowed})` : `is refused: cannot ${write.action}`}`, async () => {
        const path = write.path.replace('{org}', String(organization));
        const response = await call(t, members[role], write.method, path, write.fields, { 'pagegrade-organization': String(organization) });
        if (may) {
          expect(response.statusCode, response.body).toBe(write.allowed);
        } else {
          expect(response.statusCode, response.body).toBe(403);
          expect(body(response)).toEqual({ message: `Your role in this organisation (${role}) cannot ${write.action}.`, status: 403 });
        }
      });
    }
  }

  it('only the owner deletes the organisation', async () => {
    for (const role of ['viewer', 'editor', 'admin'] as const) {
      const response = await call(t, members[role], 'DELETE', `/api/v1/organizations/${organization}`);
      expect(body(response)).toEqual({ message: `Your role in this organisation (${role}) cannot delete the organisation.`, status: 403 });
    }
    expect((await call(t, members.owner, 'DELETE', `/api/v1/organizations/${organization}`)).statusCode).toBe(200);
  });

  it('every role reads the organisation\'s reports, projects and crawls', async () => {
    const other = await t.createAccount('reader');
    const created = body(await call(t, other, 'POST', '/api/v1/organizations', { name: 'Readers' })).data;
    await call(t, other, 'POST', `/api/v1/organizations/${created.id}/members`, { email: members.viewer.email, role: 'viewer' });
    for (const path of ['/api/v1/reports', '/api/v1/projects', '/api/v1/crawls', `/api/v1/organizations/${created.id}`]) {
      const response = await call(t, members.viewer, 'GET', path, undefined, { 'pagegrade-organization': String(created.id) });
      expect(response.statusCode, `${path}: ${response.body}`).toBe(200);
    }
  });
});
