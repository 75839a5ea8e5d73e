// The key that encrypts secrets at rest (secret-box.ts), resolved once at start. Every process that
// shares a database must use the same one: PAGEGRADE_SECRET_KEY. A SQLite database lives on one
// machine, so when the setting is unset the key is kept in a file beside the database instead, made
// on first start; PostgreSQL is shared by processes on many machines, so there it must be set.
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError, MIN_SECRET_KEY_LENGTH } from '../config.ts';
import { parseDatabaseUrl } from '../db/database.ts';

const GENERATED_KEY_BYTES = 32;

export interface ResolvedSecretKey {
  key: string;
  /** Something the operator should read once (a key file made or used); the key itself never appears. */
  notice?: string;
}

export const POSTGRES_NEEDS_SECRET_KEY =
  'PAGEGRADE_SECRET_KEY must be set: every process sharing a PostgreSQL database needs the same key to sign webhooks. ' +
  `Set it to the same random value of at least ${MIN_SECRET_KEY_LENGTH} characters on every server and worker ` +
  '(e.g. the output of: openssl rand -base64 32).';

/** The key, or a ConfigError saying what to set. */
export function resolveSecretKey(settings: { secretKey: string | undefined; databaseUrl: string | undefined }): ResolvedSecretKey {
  if (settings.secretKey !== undefined) return { key: settings.secretKey };
  const database = parseDatabaseUrl(settings.databaseUrl);
  switch (database.dialect) {
    case 'postgres':
      throw new ConfigError(POSTGRES_NEEDS_SECRET_KEY);
    case 'sqlite':
      // An in-memory database dies with its process, and so may its key.
      if (database.filename === ':memory:') return { key: randomBytes(GENERATED_KEY_BYTES).toString('base64url') };
      return keyFileBeside(database.filename);
    default:
      throw new Error(`unknown database dialect: ${JSON.stringify(database satisfies never)}`);
  }
}

/** `<db file>.secret-key`: read it, or make it (owner-only) when it does not exist yet. */
function keyFileBeside(databaseFile: string): ResolvedSecretKey {
  const path = `${databaseFile}.secret-key`;
  const existing = readKeyFile(path);
  if (existing !== undefined) return { key: existing };
  mkdirSync(dirname(path), { recursive: true });
  const key = randomBytes(GENERATED_KEY_BYTES).toString('base64url');
  // Written whole under a name of its own, then linked into place: a process starting at the same
  // moment (server and worker) never reads a half-written file, and link refuses to replace one
  // another process made first, which is then the key both use.
  const draft = `${path}.${process.pid}.tmp`;
  writeFileSync(draft, `${key}\n`, { mode: 0o600 });
  try {
    linkSync(draft, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return { key: readKeyFile(path) ?? key };
  } finally {
    unlinkSync(draft);
  }
  return {
    key,
    notice:
      `PAGEGRADE_SECRET_KEY is not set: made a key for encrypting webhook secrets in ${path}. ` +
      'Keep it with the database (a backup of one without the other cannot sign webhooks), or set PAGEGRADE_SECRET_KEY.',
  };
}

function readKeyFile(path: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const key = text.trim();
  if (key.length < MIN_SECRET_KEY_LENGTH) {
    throw new ConfigError(
      `The key file ${path} holds no key of at least ${MIN_SECRET_KEY_LENGTH} characters; restore it from a backup, or set PAGEGRADE_SECRET_KEY.`,
    );
  }
  return key;
}
