// The admin commands end to end in-process through runCli, on a database of their own: migrate,
// users, keys (a revoked key stops authenticating against the real app), usage errors, --help.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { buildApp } from '../../src/http/app.ts';
import { commands } from '../../src/cli/main.ts';
import { createScratchDatabase, TEST_SECRET_KEY, testDialects, type ScratchDatabase } from '../support/databases.ts';
import { runInProcess } from './run-cli.ts';

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The status GET /api/v1/account answers for this key, asked of the real app on the same database. */
async function accountStatus(databaseUrl: string, key: string): Promise<number> {
  const app = await buildApp({ ...loadConfig({}), databaseUrl, logLevel: false, secretKey: TEST_SECRET_KEY });
  try {
    const response = await app.inject({ method: 'GET', url: '/api/v1/account', headers: { authorization: `Bearer ${key}` } });
    return response.statusCode;
  } finally {
    await app.close();
  }
}

describe.each(testDialects())('admin commands [%s]', (dialect) => {
  let scratch: ScratchDatabase;
  let env: Record<string, string>;
  const cli = (...args: string[]) => runInProcess(args, env);
  const json = async (...args: string[]) => {
    const run = await cli(...args, '--json');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    return JSON.parse(run.stdout);
  };

  beforeAll(async () => {
    scratch = await createScratchDatabase(dialect);
    env = { DATABASE_URL: scratch.databaseUrl };
  });

  afterAll(() => scratch.drop());

  it('migrate applies the migrations once, then has nothing to do', async () => {
    const first = await json('migrate');
    expect(first.applied.length).toBeGreaterThan(0);
    expect(await json('migrate')).toEqual({ applied: [] });
    expect((await cli('migrate')).stdout).toBe('The database is up to date.\n');
  });

  it('users create prints the account and its key once; users list shows it without the key', async () => {
    const created = await json('users', 'create', '--email', 'Ana@Example.com');
    expect(created).toEqual({ id: expect.any(Number), email: 'ana@example.com', admin: false, api_key: expect.any(String) });
    expect(await accountStatus(scratch.databaseUrl, created.api_key)).toBe(200);

    const admin = await json('users', 'create', '--email', 'root@example.com', '--admin');
    expect(admin.admin).toBe(true);

    const users = await json('users', 'list');
    expect(users).toContainEqual({ id: created.id, email: 'ana@example.com', is_admin: false, created_at: expect.stringMatching(ISO_TIME), organization_id: expect.any(Number) });
    expect(users).toContainEqual(expect.objectContaining({ id: admin.id, is_admin: true }));
    expect(JSON.stringify(users)).not.toContain(created.api_key);
  });

  it('keys create, list and revoke: a revoked key no longer authenticates', async () => {
    await json('users', 'create', '--email', 'bo@example.com');
    const key = await json('keys', 'create', '--email', 'bo@example.com', '--label', 'ci');
    expect(key).toEqual({
      email: 'bo@example.com', prefix: key.api_key.slice(0, 12), label: 'ci', name: 'ci', scope: 'write', organization: null,
      created_at: expect.stringMatching(ISO_TIME), last_used_at: null, api_key: expect.any(String),
    });
    expect(await accountStatus(scratch.databaseUrl, key.api_key)).toBe(200);

    const [bo] = (await json('users', 'list')).filter((user: { email: string }) => user.email === 'bo@example.com');
    const reader = await json('keys', 'create', '--email', 'bo@example.com', '--scope', 'read', '--organization', String(bo.organization_id));
    expect(reader).toMatchObject({ scope: 'read', organization: bo.organization_id, label: null });
    const badScope = await cli('keys', 'create', '--email', 'bo@example.com', '--scope', 'admin');
    expect([badScope.code, badScope.stderr]).toEqual([2, expect.stringContaining('--scope: The scope must be one of read, write.')]);
    const badOrganization = await cli('keys', 'create', '--email', 'bo@example.com', '--organization', '999999');
    expect(badOrganization.code).toBe(2);
    expect(badOrganization.stderr).toContain('--organization:');

    const listed = await json('keys', 'list', '--email', 'bo@example.com');
    expect(listed).toHaveLength(3);
    expect(listed).toContainEqual(expect.objectContaining({ prefix: reader.prefix, scope: 'read', organization: bo.organization_id }));
    expect(listed).toContainEqual(expect.objectContaining({ prefix: key.prefix, label: 'ci', revoked_at: null }));
    expect(JSON.stringify(listed)).not.toContain(key.api_key);

    expect(await json('keys', 'revoke', key.prefix)).toEqual({ revoked: true });
    const after = await json('keys', 'list', '--email', 'bo@example.com');
    expect(after.find((listing: { prefix: string }) => listing.prefix === key.prefix).revoked_at).toMatch(ISO_TIME);
    expect(await accountStatus(scratch.databaseUrl, key.api_key)).toBe(401);

    // Revoking it again finds no active key: exit 1.
    const again = await cli('keys', 'revoke', key.prefix, '--json');
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stdout)).toEqual({ revoked: false });
  });

  it('a malformed e-mail (2) creates nothing; a key named by too short a prefix (2) revokes nothing', async () => {
    const malformed = await cli('users', 'create', '--email', 'not-an-email');
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain('"not-an-email" is not an e-mail address.');
    expect((await json('users', 'list')).map((user: { email: string }) => user.email)).not.toContain('not-an-email');

    const created = await json('users', 'create', '--email', 'short-prefix@example.com');
    const short = await cli('keys', 'revoke', created.api_key.slice(0, 5));
    expect(short.code).toBe(2);
    expect(short.stderr).toContain('Name a key by its 12-character prefix or the whole key.');
    expect(short.stderr).toContain('Usage: pagegrade keys revoke');
    expect(await accountStatus(scratch.databaseUrl, created.api_key)).toBe(200);
  });

  it('an unknown e-mail or a taken one exits 1 with a message', async () => {
    const unknown = await cli('keys', 'create', '--email', 'nobody@example.com');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No account has the e-mail nobody@example.com');
    expect((await cli('keys', 'list', '--email', 'nobody@example.com')).code).toBe(1);

    await json('users', 'create', '--email', 'taken@example.com');
    const taken = await cli('users', 'create', '--email', 'taken@example.com');
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('already exists');
  });
});

/** The command `args` run: the longest name of the table they start with. */
const commandOf = (args: string[]) =>
  commands.map((command) => command.name).find((name) => args.slice(0, name.split(' ').length).join(' ') === name);

describe.concurrent('admin commands, bad usage', () => {
  // The database is never opened: a value's form is checked first, so nothing is created or changed.
  it.each([
    [['users', 'create'], '--email is required'],
    [['users', 'create', '--email'], "Option '--email <value>' argument missing"],
    [['users', 'create', '--email', 'not-an-email'], '"not-an-email" is not an e-mail address.'],
    [['keys', 'create', '--email', 'ana@'], '"ana@" is not an e-mail address.'],
    [['keys', 'list', '--email', 'ana'], '"ana" is not an e-mail address.'],
    [['keys', 'revoke'], 'Name exactly one key'],
    [['keys', 'revoke', 'a', 'b'], 'Name exactly one key'],
    [['users', 'list', '--everything'], "Unknown option '--everything'"],
    [['webhooks', 'list', '--email', 'ana example.com'], '"ana example.com" is not an e-mail address.'],
    [['webhooks', 'delete', '3', '--email', 'nobody'], '"nobody" is not an e-mail address.'],
    [['webhooks', 'create', '--email', 'ana@example.com', '--url', 'ftp://example.com/'], '--url must use http or https; "ftp" is not supported.'],
    [['webhooks', 'create', '--email', 'ana@example.com', '--url', 'example.com'], '--url must be an absolute URL'],
    [['webhooks', 'create', '--email', 'ana@example.com', '--url', 'https://example.com/', '--events', 'report.deleted'], '--events must be one or more of: '],
    [['serve', '--port', 'http'], '--port must be a whole number from 0 to 65535; got "http".'],
    [['serve', '--port', '70000'], '--port must be a whole number from 0 to 65535; got "70000".'],
    [['serve', '--host', ''], '--host needs an address'],
  ])('%j exits 2 with the message and the usage', async (args, message) => {
    const run = await runInProcess(args, { DATABASE_URL: 'sqlite:/nonexistent/never-opened.db' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stderr).toContain(`Usage: pagegrade ${commandOf(args)} `);
    expect(run.stdout).toBe('');
  });

  it('an unknown command exits 2 and lists the commands', async () => {
    const run = await runInProcess(['users', 'delete']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Unknown command "users delete"');
    expect(run.stderr).toContain('  analyze');
  });
});

describe.concurrent('--help', () => {
  it('without a command lists every command and exits 0', async () => {
    const run = await runInProcess(['--help']);
    expect(run.code).toBe(0);
    for (const command of commands) expect(run.stdout).toContain(`  ${command.name}`);
  });

  it.each(commands.map((command) => command.name))('pagegrade %s --help exits 0 with its usage', async (name) => {
    const run = await runInProcess([...name.split(' '), '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^Usage: pagegrade ${name}\\b`));
    expect(run.stderr).toBe('');
  });
});
