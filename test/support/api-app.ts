// The real app (buildApp) on a test database of one dialect, with helpers to make accounts.
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../../src/config.ts';
import { buildApp, type BuildOptions } from '../../src/http/app.ts';
import { createScratchDatabase, TEST_SECRET_KEY, type ScratchDatabase } from './databases.ts';
import { createDb, type DialectName } from '../../src/db/database.ts';

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  /** A new account with its API key; emails are made unique per call. */
  createAccount(label?: string): Promise<{ id: number; organization: number; email: string; key: string; auth: { authorization: string } }>;
  close(): Promise<void>;
}

let accounts = 0;

/** `build`: the app's build options from its config (a test's own analyzer, with a stand-in browser). */
export async function startTestApp(dialect: DialectName, overrides: Partial<Config> = {}, build?: (config: Config) => BuildOptions): Promise<TestApp> {
  const scratch: ScratchDatabase = await createScratchDatabase(dialect);
  const config: Config = {
    ...loadConfig({}),
    databaseUrl: scratch.databaseUrl,
    allowPrivateUrls: true,
    logLevel: false,
    fetchTimeoutMs: 5000,
    rateLimitPerMinute: 10_000,
    // One analysis thread, not one a core: each starts in about a second of CPU, and a test app
    // rarely analyses two pages at once. Tests of concurrency ask for more.
    analysisThreads: 1,
    // SQLite apps make their key file beside the database, as an installation does.
    secretKey: dialect === 'postgres' ? TEST_SECRET_KEY : undefined,
    ...overrides,
  };
  const app = await buildApp(config, build?.(config));
  if (config.databaseUrl) await offsetOrganizationIds(config.databaseUrl);
  return {
    app,
    config,
    async createAccount(label = 'user') {
      accounts += 1;
      const email = `${label}-${process.pid}-${accounts}@example.test`;
      const { account, apiKey } = await app.services.accounts.createUser(email, false);
      return { id: account.id, organization: account.organization_id, email, key: apiKey, auth: { authorization: `Bearer ${apiKey}` } };
    },
    async close() {
      await app.close();
      await scratch.drop();
    },
  };
}

/**
 * Organisation ids run one ahead of account ids in every test app, so code (or a test) that passes an
 * account's id where its organisation's belongs fails instead of passing by coincidence.
 */
async function offsetOrganizationIds(databaseUrl: string): Promise<void> {
  const handle = createDb(databaseUrl);
  try {
    const now = new Date().toISOString();
    await handle.db.insertInto('organizations').values({ name: 'test: ids offset', created_at: now, updated_at: now }).execute();
  } finally {
    await handle.destroy();
  }
}
