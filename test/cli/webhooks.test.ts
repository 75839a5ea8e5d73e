// `pagegrade webhooks create|list|delete` in-process through runCli: the secret printed once and stored
// so the app signs with it, never listed; errors as messages with exit code 1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { loadConfig } from '../../src/config.ts';
import { buildApp } from '../../src/http/app.ts';
import { createScratchDatabase, TEST_SECRET_KEY, testDialects, type ScratchDatabase } from '../support/databases.ts';
import { startReceiver, type Receiver } from '../support/webhook-receiver.ts';
import { waitFor } from '../queue/engines.ts';
import { runInProcess } from './run-cli.ts';

describe.each(testDialects())('webhooks commands [%s]', (dialect) => {
  let scratch: ScratchDatabase;
  let receiver: Receiver;
  let env: Record<string, string>;
  let email: string;
  const cli = (...args: string[]) => runInProcess(args, env);
  const json = async (...args: string[]) => {
    const run = await cli(...args, '--json');
    expect(run.code, run.stderr).toBe(0);
    return JSON.parse(run.stdout);
  };

  beforeAll(async () => {
    scratch = await createScratchDatabase(dialect);
    receiver = await startReceiver([200]);
    env = { DATABASE_URL: scratch.databaseUrl, PAGEGRADE_ALLOW_PRIVATE_URLS: '1', PAGEGRADE_SECRET_KEY: TEST_SECRET_KEY };
    email = (await json('users', 'create', '--email', 'hooks@example.com')).email;
  });
  afterAll(async () => {
    await receiver?.close();
    await scratch?.drop();
  });

  it('create prints the secret once; the server signs deliveries with it; list never shows it', async () => {
    const created = await json('webhooks', 'create', '--email', email, '--url', receiver.url(), '--events', 'report.completed');
    expect(created).toEqual({
      id: expect.any(Number),
      url: receiver.url(),
      organization: expect.any(Number),
      events: ['report.completed'],
      secret: expect.stringMatching(/^whsec_/),
      created_at: expect.any(String),
      email,
    });
    const text = await cli('webhooks', 'create', '--email', email, '--url', receiver.url('/second'));
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^Created webhook \d+ for hooks@example\.com: .*\/second \(report\.completed, report\.failed, report\.regressed, crawl\.completed, crawl\.regressed\)\.\nIts signing secret, shown only once:\nwhsec_\S+\n$/);

    const listed = await json('webhooks', 'list', '--email', email);
    expect(listed.map((webhook: { id: number }) => webhook.id)).toContain(created.id);
    expect(JSON.stringify(listed)).not.toContain('whsec_');
    const table = await cli('webhooks', 'list', '--email', email);
    expect(table.stdout).toContain(`${created.id}\t${receiver.url()}\treport.completed\t`);

    const app = await buildApp({ ...loadConfig(env), logLevel: false });
    try {
      const account = await app.services.accounts.accountByEmail(email);
      await app.services.webhooks.notify(account.organization_id, 'report.completed', { id: 1 });
      await waitFor(() => receiver.received.some((delivery) => delivery.path === '/hook'), 'the delivery');
      const delivery = receiver.received.find((each) => each.path === '/hook')!;
      expect(new Webhook(created.secret).verify(delivery.body, delivery.headers as Record<string, string>)).toMatchObject({ type: 'report.completed' });
    } finally {
      await app.close();
    }
  });

  it('delete removes the webhook; deleting it again, another account\'s, or for an unknown e-mail exits 1 with a message', async () => {
    const created = await json('webhooks', 'create', '--email', email, '--url', receiver.url('/gone'));
    const other = await json('users', 'create', '--email', 'other-hooks@example.com');
    const foreign = await cli('webhooks', 'delete', String(created.id), '--email', other.email);
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toBe('Resource not found.\n');
    expect(await json('webhooks', 'delete', String(created.id), '--email', email)).toEqual({ id: created.id, object: 'webhook', deleted: true });
    expect((await json('webhooks', 'list', '--email', email)).map((webhook: { id: number }) => webhook.id)).not.toContain(created.id);
    expect((await cli('webhooks', 'delete', String(created.id), '--email', email)).code).toBe(1);
    const unknown = await cli('webhooks', 'list', '--email', 'nobody@example.com');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('No account has the e-mail nobody@example.com.\n');
  });

  it('refuses bad input: a usage error (2) without --url or a numeric id, or with a malformed url or an unknown event', async () => {
    expect((await cli('webhooks', 'create', '--email', email)).code).toBe(2);
    const noId = await cli('webhooks', 'delete', 'abc', '--email', email);
    expect(noId.code).toBe(2);
    expect(noId.stderr).toContain('Name exactly one webhook by its id');
    const before = await json('webhooks', 'list', '--email', email);
    const badUrl = await cli('webhooks', 'create', '--email', email, '--url', 'ftp://example.com/');
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toContain('--url must use http or https');
    const badEvent = await cli('webhooks', 'create', '--email', email, '--url', receiver.url(), '--events', 'report.deleted');
    expect(badEvent.code).toBe(2);
    expect(badEvent.stderr).toContain('unknown: report.deleted');
    expect(await json('webhooks', 'list', '--email', email)).toEqual(before);
  });

  it.runIf(dialect === 'postgres')('create on PostgreSQL without PAGEGRADE_SECRET_KEY exits 1 saying it must be set', async () => {
    const { PAGEGRADE_SECRET_KEY: _unset, ...withoutKey } = env;
    const run = await runInProcess(['webhooks', 'create', '--email', email, '--url', receiver.url()], withoutKey);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('PAGEGRADE_SECRET_KEY must be set');
  });
});
