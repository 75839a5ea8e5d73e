// Without PAGEGRADE_SECRET_KEY a server or worker on PostgreSQL refuses to start, before it connects
// to anything (a process with another key would sign webhooks no receiver can verify); on SQLite the
// key file beside the database is made once and then used by every process on that file.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { buildApp } from '../../src/http/app.ts';
import { Webhook } from 'standardwebhooks';
import { runInProcess } from '../cli/run-cli.ts';
import { waitFor } from '../queue/engines.ts';
import { startReceiver } from '../support/webhook-receiver.ts';

// Port 9 (discard) on loopback: nothing answers, and nothing should even try.
const UNREACHABLE_POSTGRES = 'postgres://pagegrade@127.0.0.1:9/pagegrade';
const MESSAGE = 'PAGEGRADE_SECRET_KEY must be set: every process sharing a PostgreSQL database needs the same key to sign webhooks';

describe('the secret key at start', () => {
  const directories: string[] = [];
  afterAll(async () => {
    for (const directory of directories) await rm(directory, { recursive: true, force: true });
  });

  it('buildApp on PostgreSQL without it rejects with the message', async () => {
    await expect(buildApp({ ...loadConfig({}), databaseUrl: UNREACHABLE_POSTGRES, logLevel: false })).rejects.toThrow(MESSAGE);
  });

  it('`pagegrade worker` on PostgreSQL without it exits 1 with the message', async () => {
    const run = await runInProcess(['worker'], { DATABASE_URL: UNREACHABLE_POSTGRES });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(MESSAGE);
  });

  it('a SQLite app makes the key file beside the database, and the next app on it uses the same key', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'pagegrade-key-start-'));
    directories.push(directory);
    const base = { ...loadConfig({}), databaseUrl: `sqlite:${join(directory, 'pagegrade.db')}`, logLevel: false as const, allowPrivateUrls: true };
    const hook = await startReceiver([200]);
    const first = await buildApp({ ...base, workers: 0 });
    const account = await first.services.accounts.createUser('keys@example.test', false);
    const created = await first.services.webhooks.register(account.account.id, { url: hook.url() });
    await first.close();
    const key = (await readFile(join(directory, 'pagegrade.db.secret-key'), 'utf8')).trim();
    expect(key).toHaveLength(43);

    // A second process on the same file decrypts what the first stored: it signs with the same secret.
    const second = await buildApp({ ...base, workers: 1 });
    try {
      expect((await readFile(join(directory, 'pagegrade.db.secret-key'), 'utf8')).trim()).toBe(key);
      await second.services.webhooks.notify(account.account.id, 'report.completed', { id: 1 });
      await waitFor(() => hook.received.length === 1, 'the delivery');
      const [delivery] = hook.received;
      expect(new Webhook(created.secret).verify(delivery.body, delivery.headers as Record<string, string>)).toMatchObject({ type: 'report.completed' });
    } finally {
      await second.close();
      await hook.close();
    }
  });
});
