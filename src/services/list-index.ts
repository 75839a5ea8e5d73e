// In-memory list indexes (account-list-index.ts), one per account, each valid for one reports version
// (repositories/reports-version.ts). A request gives the version it read with its API key: an index
// made under that version answers any report list but a search, and one under an older version is
// dropped. Indexes are built on a thread of their own with its own connection (list-index-worker.ts),
// one account at a time, while requests take the SQL path: for an account on its second list miss
// under one version, and, when a server starts, for every account, the one whose key was used last
// first (warm()), until the budget is full. Least recently used indexes go first when it is full. An
// in-memory SQLite database has no second connection to build from: there, no indexes.
//
// Why: a filtered list asks for one of thousands of (project, verdict) pages, so kept answers
// (http/kept-list-bodies.ts) seldom hold the one asked for, and at a million reports each such page
// cost 250-320 µs of server CPU on SQLite (half of it the page's statement) and more on PostgreSQL.
// From memory the page is picked in about 15 µs and written from the index's bytes (copied once into
// its answer, or, in a few runs of bytes, not at all: http/send-json-text.ts sendJsonParts).
//
// Builds take the CPU requests leave: the thread runs at the lowest priority, and once the server
// serves (after warm()'s `fullSpeedUntil`; src/server.ts builds first, then listens) a warm-start build
// is followed by a pause as long as itself. Building a million reports' indexes takes 10-20 s of CPU;
// unpaused, on two cores, PostgreSQL's show answered with a p99 of 30 ms while they were built.
//
// Consistency: a build reads the version with the rows, in one snapshot (list-index-build.ts), so an
// index is exactly the account's reports as of its version, whichever server process wrote them.
import { Worker } from 'node:worker_threads';
import { parseDatabaseUrl } from '../db/database.ts';
import { AccountListIndex, type IndexPage, type IndexPageQuery } from './account-list-index.ts';
import type { BuildReply, BuildRequest, ListIndexWorkerData } from './list-index-worker.ts';

export interface ListIndex {
  /** The page from memory; undefined when the account has no index for `version` (yet). */
  page(userId: number, version: number, query: IndexPageQuery): IndexPage | undefined;
  /** Accounts with an index now, and the bytes they hold. */
  usage(): { accounts: number; bytes: number };
  /**
   * Builds these accounts' indexes, in this order, before they list (a server's warm start), until
   * the budget is full; accounts that list meanwhile go first. Until `fullSpeedUntil` (a
   * performance.now() time) one build follows another; after it each is followed by a pause as long
   * as itself. Resolves once no build is left.
   */
  warm(userIds: readonly number[], fullSpeedUntil?: number): Promise<void>;
  /** Resolves once no build is queued or running (for tests and benchmarks). */
  idle(): Promise<void>;
  /** Stops building and ends the thread; indexes already held still answer. */
  close(): Promise<void>;
}

export interface ListIndexOptions {
  /** Where a failed build is reported (the request path never sees it). */
  onBuildError?: (userId: number, error: unknown) => void;
}

/** Accounts whose first miss is remembered: more than any server lists at once. */
const MAX_REMEMBERED_MISSES = 10_000;
const WORKER_URL = new URL('./list-index-worker.mjs', import.meta.url);
/** SQLite's page cache on the build thread's connection: a build reads each page about once. */
const BUILD_THREAD_SQLITE_CACHE_MB = 64;

/** `maxBytes`: the most all indexes may hold together; 0 builds none. */
export function createListIndex(databaseUrl: string | undefined, maxBytes: number, options: ListIndexOptions = {}): ListIndex {
  const config = parseDatabaseUrl(databaseUrl);
  const budget = config.dialect === 'sqlite' && config.filename === ':memory:' ? 0 : maxBytes;
  const held = new Map<number, { version: number; index: AccountListIndex }>();
  let used = 0;
  /** account -> the version of its last miss; a second miss under it queues a build */
  const missed = new Map<number, number>();
  /** account -> the version it was too big to build under */
  const tooBig = new Map<number, number>();
  /** accounts that listed twice under one version, built first */
  const queue = new Set<number>();
  /** accounts to build for a warm start, after those */
  const warming: number[] = [];
  let building: { userId: number; warmOnly: boolean; done: () => void } | null = null;
  let worker: Worker | null = null;
  const idleWaiters: (() => void)[] = [];
  let closed = false;
  let fullSpeedUntil = 0;

  const drop = (userId: number) => {
    const entry = held.get(userId);
    if (entry === undefined) return;
    held.delete(userId);
    used -= entry.index.bytes;
  };

  function noteMiss(userId: number, version: number): void {
    if (budget === 0 || closed || queue.has(userId) || building?.userId === userId || tooBig.get(userId) === version) return;
    if (missed.get(userId) !== version) {
      missed.delete(userId);
      missed.set(userId, version);
      if (missed.size > MAX_REMEMBERED_MISSES) missed.delete(missed.keys().next().value!);
      return;
    }
    missed.delete(userId);
    queue.add(userId);
    buildNext();
  }

  function buildNext(): void {
    if (building !== null) return;
    const [asked] = queue;
    // An account built meanwhile (it listed twice) needs no warm-start build; a full budget, no more.
    if (held.size > 0 && used + used / held.size > budget) warming.length = 0;
    while (asked === undefined && warming.length > 0 && held.has(warming[0])) warming.shift();
    const userId = asked ?? warming.shift();
    if (userId === undefined || closed) {
      queue.clear();
      warming.length = 0;
      for (const wake of idleWaiters.splice(0)) wake();
      worker?.unref();
      return;
    }
    queue.delete(userId);
    const startedAt = performance.now();
    const warmOnly = asked === undefined;
    building = {
      userId,
      warmOnly,
      done: () => {
        // Once the server serves, a warm-start build is followed by a pause as long as itself: at most
        // half of a core goes to warming, so the requests of a server that just started keep their latency.
        const now = performance.now();
        const pause = warmOnly && now > fullSpeedUntil ? now - startedAt : 0;
        const next = () => {
          building = null;
          buildNext();
        };
        if (pause > 0 && !closed) setTimeout(next, pause).unref();
        else next();
      },
    };
    const thread = (worker ??= startWorker());
    thread.ref();
    thread.postMessage({ userId, maxBytes: budget } satisfies BuildRequest);
  }

  function startWorker(): Worker {
    const workerData: ListIndexWorkerData = { databaseUrl, sqliteCacheMb: BUILD_THREAD_SQLITE_CACHE_MB };
    const thread = new Worker(WORKER_URL, { workerData });
    thread.on('message', (reply: BuildReply) => {
      if ('error' in reply) options.onBuildError?.(reply.userId, Object.assign(new Error(reply.error.message), reply.error));
      else keep(reply.userId, reply.outcome, building?.warmOnly ?? false);
      building?.done();
    });
    const lost = (error: Error) => {
      if (worker !== thread) return;
      worker = null;
      if (building !== null) {
        options.onBuildError?.(building.userId, error);
        building.done();
      }
    };
    thread.on('error', lost);
    thread.on('exit', (code) => lost(new Error(`list index worker exited with code ${code}`)));
    return thread;
  }

  /** A warm-start build only fills free room; one an account asked for may push out others. */
  function keep(userId: number, outcome: Extract<BuildReply, { outcome: unknown }>['outcome'], warmOnly: boolean): void {
    if (outcome === null) return;
    if ('tooBig' in outcome) return void tooBig.set(userId, outcome.version);
    const current = held.get(userId);
    if (closed || (current !== undefined && current.version >= outcome.version)) return;
    const index = new AccountListIndex(outcome.parts);
    if (index.bytes > budget) return void tooBig.set(userId, outcome.version);
    if (warmOnly && used - (current?.index.bytes ?? 0) + index.bytes > budget) return;
    drop(userId);
    for (const [oldest] of held) {
      if (used + index.bytes <= budget) break;
      drop(oldest);
    }
    held.set(userId, { version: outcome.version, index });
    used += index.bytes;
  }

  const idle = () =>
    building === null && queue.size === 0 && warming.length === 0 ? Promise.resolve() : new Promise<void>((resolve) => idleWaiters.push(resolve));

  return {
    page(userId, version, query) {
      const entry = held.get(userId);
      if (entry !== undefined && entry.version === version) {
        // Re-inserting keeps the map in least-recently-used order.
        held.delete(userId);
        held.set(userId, entry);
        return entry.index.page(query);
      }
      // An older version than the index's is a request that read it before a change: not a reason to drop.
      if (entry !== undefined && entry.version < version) drop(userId);
      noteMiss(userId, version);
      return undefined;
    },
    usage: () => ({ accounts: held.size, bytes: used }),
    warm(userIds, until = 0) {
      if (budget === 0 || closed) return Promise.resolve();
      fullSpeedUntil = until;
      warming.push(...userIds);
      buildNext();
      return idle();
    },
    idle,
    async close() {
      closed = true;
      queue.clear();
      await idle();
      const thread = worker;
      worker = null;
      if (thread === null) return;
      const exited = new Promise((resolve) => thread.once('exit', resolve));
      thread.postMessage('stop' satisfies BuildRequest);
      await exited;
    },
  };
}
