// Settings from the environment (the README's "Settings" table). Read once at start; everything else takes a
// Config so tests build their own without touching process.env.
import { statSync } from 'node:fs';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { extname, resolve } from 'node:path';
import { compile as compileTrust } from '@fastify/proxy-addr';
import { DEFAULT_THRESHOLDS, type CheckThresholds } from './checks/thresholds.ts';
import { MAX_ALLOWED_ADDRESSES, parseAllowedAddresses } from './fetch/allowed-addresses.ts';
import { DEFAULT_USER_AGENT } from './fetch/options.ts';
import { DEFAULT_CHROMIUM_PATH } from './render/chromium.ts';

export interface Config {
  port: number;
  host: string;
  /** Which peers are reverse proxies whose X-Forwarded-For/-Proto the server believes (PAGEGRADE_TRUST_PROXY). */
  trustProxy: TrustProxy;
  /** undefined: SQLite at ./data/pagegrade.db */
  databaseUrl: string | undefined;
  adminKey: string | undefined;
  allowPrivateUrls: boolean;
  /**
   * Addresses and CIDR ranges the address guard lets through although not public, as `address/prefix`
   * (PAGEGRADE_ALLOWED_ADDRESSES; fetch/allowed-addresses.ts). Empty: none.
   */
  allowedAddresses: string[];
  fetchTimeoutMs: number;
  maxPageBytes: number;
  rateLimitPerMinute: number;
  /** redis://... : the rate limit is shared by every server process using this Redis. */
  redisUrl: string | undefined;
  /**
   * Prefix of the background queue's Redis keys: installations that share one Redis each need their
   * own, and every process of one installation the same.
   */
  queuePrefix: string;
  /**
   * How long a background job stays with a process that stopped answering before another takes it
   * over (the embedded engine's lease, BullMQ's lock).
   */
  jobLeaseMs: number;
  /** Wait before a failed background job's first retry, doubled for each further one (both engines). */
  jobRetryMs: number;
  /** Runs kept per report, the oldest deleted first. */
  runsKept: number;
  /** The shortest interval a cron schedule may have. */
  minScheduleMinutes: number;
  /**
   * How often each process that runs jobs looks for reports whose schedule is due. Schedules are in
   * minutes, so the default starts a run within seconds of its slot.
   */
  schedulerIntervalMs: number;
  /** A run whose score fell by at least this much since the run before is a regression (webhook). */
  alertScoreDrop: number;
  /** Analyses one account may have running at once (create and regenerate). */
  maxAnalysesPerAccount: number;
  /** Analyses the whole process runs at once. */
  maxAnalyses: number;
  /** Background jobs this process runs at once; 0: it runs none (a server that only takes requests). */
  workers: number;
  /** Requests a crawl makes at once to its host, across every process (PAGEGRADE_CRAWL_CONCURRENCY). */
  crawlConcurrency: number;
  /** The largest max_pages a crawl may ask for. */
  crawlMaxPages: number;
  /** Crawls one account may have queued or running; one more is a 429 (PAGEGRADE_CRAWLS_PER_ACCOUNT). */
  crawlsPerAccount: number;
  /** External URLs one crawl checks at most; the rest stay unchecked (PAGEGRADE_CRAWL_MAX_EXTERNAL). */
  crawlMaxExternal: number;
  /** How long a crawl's claim on a page lasts: past it, another worker takes the page (its process is thought gone). */
  crawlClaimMs: number;
  /** Worker threads that parse and check pages; 0 runs that on the main thread. */
  analysisThreads: number;
  /** The Chromium that render=1 runs (PAGEGRADE_CHROMIUM_PATH); without one there, rendering is not available. */
  chromiumPath: string;
  /** Pages rendered at once, each in a fresh context of the pool's one browser (PAGEGRADE_RENDER_CONCURRENCY). */
  renderConcurrency: number;
  /** The longest a lab audit observes one page, from the navigation's start (PAGEGRADE_LAB_TIMEOUT_MS); its accessibility run has 20 s of its own after. */
  labTimeoutMs: number;
  /** Lab audits at once in one process (PAGEGRADE_LAB_CONCURRENCY): throttled timings taken side by side disturb each other. */
  labConcurrency: number;
  /** PostgreSQL: most time to open a connection or wait for a free one. */
  dbConnectTimeoutMs: number;
  /** PostgreSQL: most time one statement may take; 0: no limit. */
  dbQueryTimeoutMs: number;
  /** Most memory SQLite's page cache may use (it fills only as pages are read). */
  sqliteCacheMb: number;
  userAgent: string;
  thresholds: CheckThresholds;
  /** pino level, or false to silence logs (tests) */
  logLevel: string | false;
  /**
   * Encrypts webhook secrets at rest; the same on every process sharing the database. undefined:
   * SQLite keeps one in a file beside the database, PostgreSQL refuses to start (security/secret-key.ts).
   */
  secretKey: string | undefined;
  /** Waits before a failed webhook delivery's 2nd, 3rd, ... attempt; after the last it is failed. */
  webhookRetryMs: number[];
  /** Webhook deliveries this process makes at once, beside (never inside) the job slots of analyses and crawls. */
  webhookConcurrency: number;
  /** The name, logo and colour on report pages, the dashboard and PDFs (PAGEGRADE_BRAND_*): white-label. */
  brand: Brand;
  /** Test seam for the private-address guard (see fetch/options.ts). */
  publicAddressesForTests?: string[];
}

export interface Brand {
  name: string;
  /** An absolute path to an image file the server serves as the logo; undefined: the name alone. */
  logoPath: string | undefined;
  /** #rrggbb: the accent of headers, links and buttons. */
  color: string;
}

export const DEFAULT_BRAND: Brand = { name: 'pagegrade', logoPath: undefined, color: '#0b5cad' };

export class ConfigError extends Error {}

/**
 * PAGEGRADE_TRUST_PROXY (docs/production.md, "Behind a reverse proxy"): false, no proxy (the client
 * is the TCP peer); 'one-local-proxy', one proxy on this machine (a loopback peer, one hop); or the
 * proxies' addresses, CIDR ranges and proxy-addr's names (loopback, linklocal, uniquelocal).
 */
export type TrustProxy = false | 'one-local-proxy' | string[];

const TRUST_PROXY_FORMS =
  '0 (off), 1 (one proxy on this machine) or a comma-separated list of the proxies\' IPv4/IPv6 addresses and CIDR ranges ' +
  'and the names loopback, linklocal, uniquelocal (e.g. 10.0.0.0/8,::1)';

const TRUST_PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * A name, or an address in its usual notation (ipaddr.js, under proxy-addr, would also read "2" or
 * "127.1" as addresses) with an optional range, which proxy-addr's own parser (the one Fastify compiles
 * the list with) must accept as well, so what passes here works there.
 */
function isTrustProxyEntry(entry: string): boolean {
  if (TRUST_PROXY_NAMES.has(entry)) return true;
  const slash = entry.lastIndexOf('/');
  if (isIP(slash === -1 ? entry : entry.slice(0, slash)) === 0) return false;
  try {
    compileTrust(entry);
    return true;
  } catch {
    return false;
  }
}

function trustProxySetting(env: NodeJS.ProcessEnv): TrustProxy {
  const raw = (env.PAGEGRADE_TRUST_PROXY ?? '').trim();
  if (raw === '' || raw === '0') return false;
  if (raw === '1') return 'one-local-proxy';
  const entries = raw.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    if (!isTrustProxyEntry(entry)) {
      throw new ConfigError(`PAGEGRADE_TRUST_PROXY must be ${TRUST_PROXY_FORMS}; "${entry}" in "${raw}" is none of these.`);
    }
  }
  return entries;
}

function allowedAddressesSetting(env: NodeJS.ProcessEnv): string[] {
  const parsed = parseAllowedAddresses(env.PAGEGRADE_ALLOWED_ADDRESSES ?? '');
  if (parsed.ok) return parsed.entries;
  throw new ConfigError(
    `PAGEGRADE_ALLOWED_ADDRESSES must be a comma-separated list of at most ${MAX_ALLOWED_ADDRESSES} IPv4/IPv6 addresses and CIDR ranges ` +
      `(e.g. 10.20.0.0/16,fd00::/8); ${parsed.problem}.`,
  );
}

/**
 * Report pages and their results an active server reads again and again: at a million
 * reports the rows behind one list page or report are scattered over gigabytes, and when the operating
 * system's cache has let them go (some VMs reclaim it within a minute) every row is a disk read.
 */
const DEFAULT_SQLITE_CACHE_MB = 256;

/**
 * A minute: far above any request's queries, so only a database that stopped answering reaches it;
 * a migration of a very large database may need more (0 lifts the limit for that start).
 */
const DEFAULT_DB_QUERY_TIMEOUT_MS = 60_000;

function integerSetting(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max = Infinity): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    const range = max === Infinity ? `of at least ${min}` : `from ${min} to ${max}`;
    throw new ConfigError(`${name} must be an integer ${range}; got "${raw}".`);
  }
  return value;
}

/**
 * Background jobs (analyses) spend most of their time waiting on the network, so a few run well
 * beside the requests one process serves; more machines mean more processes, not a larger number.
 */
export const DEFAULT_WORKERS = 4;

/** PAGEGRADE_CRAWLS_PER_ACCOUNT unset: a few sites audited at once, never a queue of hundreds from one key. */
export const DEFAULT_CRAWLS_PER_ACCOUNT = 5;
/** Catches a typo (400 for 40) before it opens hundreds of fetches at once; scale out with more processes. */
const MAX_WORKERS = 64;

function queuePrefixSetting(env: NodeJS.ProcessEnv): string {
  const prefix = env.PAGEGRADE_QUEUE_PREFIX || 'pagegrade';
  // BullMQ joins key parts with ':'; a prefix holding one would read as two parts.
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(prefix)) {
    throw new ConfigError(`PAGEGRADE_QUEUE_PREFIX must be 1-64 letters, digits, '.', '_' or '-'; got "${prefix}".`);
  }
  return prefix;
}

/** Shorter keys are guessable (a word, a short phrase); a random key of this length is not. */
export const MIN_SECRET_KEY_LENGTH = 32;

function secretKeySetting(env: NodeJS.ProcessEnv): string | undefined {
  const key = env.PAGEGRADE_SECRET_KEY;
  if (key === undefined || key === '') return undefined;
  if (key.length < MIN_SECRET_KEY_LENGTH) {
    throw new ConfigError(
      `PAGEGRADE_SECRET_KEY must be at least ${MIN_SECRET_KEY_LENGTH} characters (it has ${key.length}); ` +
        'use a random value, e.g. the output of: openssl rand -base64 32.',
    );
  }
  return key;
}

/** A day at most: a longer wait is more likely a typo (an extra zero) than a plan. */
const MAX_WEBHOOK_RETRY_MS = 24 * 60 * 60 * 1000;
/** Growing waits: a receiver that is down for a deploy is caught within minutes, one down longer within the hour. */
const DEFAULT_WEBHOOK_RETRY_MS = [5_000, 30_000, 120_000, 600_000, 3_600_000];

function webhookRetrySetting(env: NodeJS.ProcessEnv): number[] {
  const raw = env.PAGEGRADE_WEBHOOK_RETRY_MS;
  if (raw === undefined || raw === '') return [...DEFAULT_WEBHOOK_RETRY_MS];
  const waits = raw.split(',').map((part) => Number(part.trim()));
  if (waits.some((wait) => !Number.isInteger(wait) || wait < 1 || wait > MAX_WEBHOOK_RETRY_MS)) {
    throw new ConfigError(
      `PAGEGRADE_WEBHOOK_RETRY_MS must be a comma-separated list of milliseconds, each an integer from 1 to ${MAX_WEBHOOK_RETRY_MS}, ` +
        `e.g. ${DEFAULT_WEBHOOK_RETRY_MS.join(',')}; got "${raw}".`,
    );
  }
  return waits;
}

function thresholdsSetting(env: NodeJS.ProcessEnv): CheckThresholds {
  const raw = env.PAGEGRADE_THRESHOLDS;
  if (!raw) return { ...DEFAULT_THRESHOLDS };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError('PAGEGRADE_THRESHOLDS must be a JSON object, e.g. {"title_max_chars": 65}.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError('PAGEGRADE_THRESHOLDS must be a JSON object, e.g. {"title_max_chars": 65}.');
  }
  const thresholds: CheckThresholds = { ...DEFAULT_THRESHOLDS };
  for (const [key, value] of Object.entries(parsed)) {
    if (!(key in DEFAULT_THRESHOLDS)) {
      throw new ConfigError(
        `PAGEGRADE_THRESHOLDS has an unknown key "${key}"; known keys: ${Object.keys(DEFAULT_THRESHOLDS).join(', ')}.`,
      );
    }
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new ConfigError(`PAGEGRADE_THRESHOLDS.${key} must be a non-negative number.`);
    }
    thresholds[key as keyof CheckThresholds] = value;
  }
  return thresholds;
}

/**
 * A thread per core, at most four. The main thread (HTTP, database, fetching) waits on fetches and
 * the disk for much of a create, so it needs no core of its own: on two cores a second analysis
 * thread made the create benchmark 8-10% faster (three alternating runs each), and a third
 * was slower again. Past four threads the main thread, not parsing, limits how many reports a process
 * makes. On one core the one thread keeps parsing off the event loop.
 */
function defaultAnalysisThreads(): number {
  return Math.min(4, availableParallelism());
}

/** Image types a browser shows in an <img> and that carry no script when served as themselves (SVG is sandboxed by the CSP). */
export const BRAND_LOGO_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.svg': 'image/svg+xml',
};
/** A logo is shown small; a larger file is a mistake (a photo, a wrong path), not a logo. */
const MAX_BRAND_LOGO_BYTES = 1024 * 1024;

function brandSetting(env: NodeJS.ProcessEnv): Brand {
  const name = (env.PAGEGRADE_BRAND_NAME ?? '').trim() || DEFAULT_BRAND.name;
  if (name.length > 60 || /[\u0000-\u001f]/.test(name)) {
    throw new ConfigError(`PAGEGRADE_BRAND_NAME must be at most 60 characters with no control characters; got "${name}".`);
  }
  const color = (env.PAGEGRADE_BRAND_COLOR ?? '').trim() || DEFAULT_BRAND.color;
  if (!/^#[0-9a-fA-F]{6}$/.test(color)) {
    throw new ConfigError(`PAGEGRADE_BRAND_COLOR must be a colour as #rrggbb, e.g. #0b7a75; got "${color}".`);
  }
  const rawLogo = (env.PAGEGRADE_BRAND_LOGO ?? '').trim();
  if (rawLogo === '') return { name, logoPath: undefined, color: color.toLowerCase() };
  const logoPath = resolve(rawLogo);
  if (!(extname(logoPath).toLowerCase() in BRAND_LOGO_TYPES)) {
    throw new ConfigError(`PAGEGRADE_BRAND_LOGO must be a ${Object.keys(BRAND_LOGO_TYPES).join(', ')} file; got "${rawLogo}".`);
  }
  let size: number;
  try {
    const stat = statSync(logoPath);
    if (!stat.isFile()) throw new Error('not a file');
    size = stat.size;
  } catch {
    throw new ConfigError(`PAGEGRADE_BRAND_LOGO must name a readable image file; "${rawLogo}" is not one.`);
  }
  if (size > MAX_BRAND_LOGO_BYTES) {
    throw new ConfigError(`PAGEGRADE_BRAND_LOGO must be at most ${MAX_BRAND_LOGO_BYTES / 1024} KB; "${rawLogo}" is ${Math.ceil(size / 1024)} KB.`);
  }
  return { name, logoPath, color: color.toLowerCase() };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const fetchTimeoutMs = integerSetting(env, 'PAGEGRADE_FETCH_TIMEOUT_MS', 10_000, 1);
  return {
    port: integerSetting(env, 'PORT', 3000, 0),
    host: env.HOST || '127.0.0.1',
    trustProxy: trustProxySetting(env),
    databaseUrl: env.DATABASE_URL || undefined,
    adminKey: env.PAGEGRADE_ADMIN_KEY || undefined,
    allowPrivateUrls: env.PAGEGRADE_ALLOW_PRIVATE_URLS === '1',
    allowedAddresses: allowedAddressesSetting(env),
    fetchTimeoutMs,
    maxPageBytes: integerSetting(env, 'PAGEGRADE_MAX_PAGE_BYTES', 5 * 1024 * 1024, 1024),
    rateLimitPerMinute: integerSetting(env, 'PAGEGRADE_RATE_LIMIT', 120, 1),
    redisUrl: env.REDIS_URL || undefined,
    queuePrefix: queuePrefixSetting(env),
    jobLeaseMs: integerSetting(env, 'PAGEGRADE_JOB_LEASE_MS', 30_000, 1_000, 3_600_000),
    jobRetryMs: integerSetting(env, 'PAGEGRADE_JOB_RETRY_MS', 5_000, 0, 3_600_000),
    runsKept: integerSetting(env, 'PAGEGRADE_RUNS_KEPT', 100, 1, 100_000),
    alertScoreDrop: integerSetting(env, 'PAGEGRADE_ALERT_SCORE_DROP', 10, 1, 100),
    minScheduleMinutes: integerSetting(env, 'PAGEGRADE_MIN_SCHEDULE_MINUTES', 60, 1, 7 * 24 * 60),
    schedulerIntervalMs: integerSetting(env, 'PAGEGRADE_SCHEDULER_INTERVAL_MS', 5_000, 100, 60_000),
    maxAnalysesPerAccount: integerSetting(env, 'PAGEGRADE_MAX_ANALYSES_PER_ACCOUNT', 16, 1),
    maxAnalyses: integerSetting(env, 'PAGEGRADE_MAX_ANALYSES', 64, 1),
    workers: integerSetting(env, 'PAGEGRADE_WORKERS', DEFAULT_WORKERS, 0, MAX_WORKERS),
    crawlConcurrency: integerSetting(env, 'PAGEGRADE_CRAWL_CONCURRENCY', 2, 1, 32),
    crawlMaxPages: integerSetting(env, 'PAGEGRADE_CRAWL_MAX_PAGES', 10_000, 1, 1_000_000),
    crawlsPerAccount: integerSetting(env, 'PAGEGRADE_CRAWLS_PER_ACCOUNT', DEFAULT_CRAWLS_PER_ACCOUNT, 1, 1_000),
    crawlMaxExternal: integerSetting(env, 'PAGEGRADE_CRAWL_MAX_EXTERNAL', 10_000, 1, 1_000_000),
    // A page's fetch and analysis take at most the fetch deadline and a little more.
    crawlClaimMs: integerSetting(env, 'PAGEGRADE_CRAWL_CLAIM_MS', Math.max(30_000, fetchTimeoutMs * 2 + 10_000), 1_000, 3_600_000),
    analysisThreads: integerSetting(env, 'PAGEGRADE_ANALYSIS_THREADS', defaultAnalysisThreads(), 0),
    chromiumPath: env.PAGEGRADE_CHROMIUM_PATH || DEFAULT_CHROMIUM_PATH,
    // A page being rendered takes 100-300 MB and most of a core: two suit a small server.
    renderConcurrency: integerSetting(env, 'PAGEGRADE_RENDER_CONCURRENCY', 2, 1, 32),
    // A slow phone's load of a heavy page takes 10-20 s; past 2 minutes a lab audit holds its browser for nothing.
    labTimeoutMs: integerSetting(env, 'PAGEGRADE_LAB_TIMEOUT_MS', 30_000, 1_000, 120_000),
    labConcurrency: integerSetting(env, 'PAGEGRADE_LAB_CONCURRENCY', 1, 1, 8),
    dbConnectTimeoutMs: integerSetting(env, 'PAGEGRADE_DB_CONNECT_TIMEOUT_MS', 5_000, 1),
    dbQueryTimeoutMs: integerSetting(env, 'PAGEGRADE_DB_QUERY_TIMEOUT_MS', DEFAULT_DB_QUERY_TIMEOUT_MS, 0),
    sqliteCacheMb: integerSetting(env, 'PAGEGRADE_SQLITE_CACHE_MB', DEFAULT_SQLITE_CACHE_MB, 2),
    userAgent: env.PAGEGRADE_USER_AGENT || DEFAULT_USER_AGENT,
    thresholds: thresholdsSetting(env),
    secretKey: secretKeySetting(env),
    webhookRetryMs: webhookRetrySetting(env),
    // Each delivery is mostly a wait on someone else's server (up to its 10 s deadline).
    webhookConcurrency: integerSetting(env, 'PAGEGRADE_WEBHOOK_CONCURRENCY', 8, 1, 64),
    brand: brandSetting(env),
    logLevel: env.LOG_LEVEL === 'silent' ? false : env.LOG_LEVEL || 'info',
  };
}
