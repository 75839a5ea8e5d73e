// Worker threads that run analyzePage off the main thread. Parsing and checking a page is the one
// CPU-heavy step of a report (milliseconds for a typical page, far more for a huge one); on the main
// thread it would hold up every other request meanwhile, and use one core however many there are.
// The same threads parse what a crawled site may make large: its robots.txt (500 KiB of wildcard rules,
// matched against lists of URLs) and its sitemaps (megabytes each). One pool per process, whatever
// number of apps it builds; idle threads do not keep it alive.
import { Worker } from 'node:worker_threads';
import type { CheckThresholds } from '../checks/thresholds.ts';
import type { OriginFacts, UndecodedPage } from '../fetch/types.ts';
import type { CheckFailureLogger } from '../scoring/run-checks.ts';
import type { Analysis } from './types.ts';
import type { RenderOutcome } from '../render/render-page.ts';
import type { LabAudit } from '../lab/lab-types.ts';
import type { ParsingThreads } from '../fetch/options.ts';
import type { SitemapContent } from '../fetch/sitemap-xml.ts';
import type { RobotsAnswer, RobotsQuestion } from '../robots/robots-answer.ts';
import type { CrawlLinkOptions } from './types.ts';

/**
 * A crawl's link options as a task carries them: the robots.txt text is left out when it is the origin
 * facts' own (a crawl's usually is), so that 500 KiB does not travel twice with every page.
 */
export interface TaskCrawlLinks extends Omit<CrawlLinkOptions, 'robotsTxt'> {
  robotsTxt: string | null | { ofOrigin: true };
}

export interface AnalysisTask {
  /** Decoded on the thread. Its bytes are copied into the message, not moved: a task waiting behind one
   * that kills its thread is posted again to the next thread, whole. */
  page: UndecodedPage;
  origin: OriginFacts;
  thresholds: CheckThresholds;
  /** Taken by the caller, whose clock is the one that counts (tests freeze it). */
  generatedAt: Date;
  /** A crawl's page: keep its compact facts too, its links filtered as the crawl says (crawl-facts.ts). */
  crawl?: TaskCrawlLinks;
  /** With render=1: the DOM the browser left (parsed on the thread, beside the raw HTML), or why there is none. */
  rendering?: RenderOutcome;
  /** With lab=1: the lab audit the main thread made (plain data, copied into the message), judged on the thread. */
  lab?: LabAudit;
}

export interface PlainError {
  name: string;
  message: string;
  stack?: string;
}

export interface CheckFailure {
  checkId: string;
  error: PlainError;
}

/** The other work the threads take (pool-tasks.ts runs it); an AnalysisTask has no `kind`. */
export type ParsingTask =
  | { kind: 'robots'; question: RobotsQuestion }
  | { kind: 'robots-sitemaps'; text: string }
  | { kind: 'sitemap'; bytes: Uint8Array; charsetLabel: string | null };

/** What each kind of parsing task answers. */
export interface ParsingResults {
  robots: RobotsAnswer;
  'robots-sitemaps': string[];
  sitemap: SitemapContent;
}

/** What a worker posts: once `ready`, then one reply per task, in order. */
export type WorkerMessage =
  | { ready: true }
  | { analysis: Analysis; failures: CheckFailure[] }
  | { result: unknown; failures: CheckFailure[] }
  | { error: PlainError; failures: CheckFailure[] };

export interface AnalysisPool extends ParsingThreads {
  analyze(task: AnalysisTask, onCheckFailure?: CheckFailureLogger): Promise<Analysis>;
  /** robots.txt questions: whether each URL is allowed, and the Crawl-delay (robots-answer.ts). */
  robots(question: RobotsQuestion): Promise<RobotsAnswer>;
}

interface Job {
  task: AnalysisTask | ParsingTask;
  onCheckFailure?: CheckFailureLogger;
  resolve(result: unknown): void;
  reject(error: Error): void;
}

interface Thread {
  worker: Worker;
  ready: boolean;
  /** Posted to the worker and not answered yet, oldest (the one it is working on) first. */
  jobs: Job[];
}

/**
 * Tasks posted to a thread ahead of its answers. With one, a thread sat idle from posting an answer
 * until the main thread, busy with requests, read it and posted the next page (a quarter of its time
 * under the create benchmark); with a second task already waiting in its port it starts at once
 * (create benchmark: 183-202 -> 203-236 reports/s). A task waits behind at most one other.
 */
const TASKS_PER_THREAD = 2;

/**
 * Compiled (dist/), this module is JavaScript and so is its worker. Run from the sources (tsx, vitest)
 * it is TypeScript, and the worker starts through analysis-worker.mjs, which registers tsx first.
 */
const WORKER_URL = new URL(
  new URL(import.meta.url).pathname.endsWith('.ts') ? './analysis-worker.mjs' : './analysis-worker.js',
  import.meta.url,
);
const pools = new Map<number, AnalysisPool>();

/** The process's pool of `threads` workers, made on first use. */
export function analysisPool(threads: number): AnalysisPool {
  let pool = pools.get(threads);
  if (!pool) {
    pool = createPool(threads);
    pools.set(threads, pool);
  }
  return pool;
}

function toError(plain: PlainError): Error {
  const error = new Error(plain.message);
  error.name = plain.name;
  if (plain.stack) error.stack = plain.stack;
  return error;
}

/** A pool of its own; `workerUrl` lets tests run a stand-in worker that speaks the same messages. */
export function createPool(size: number, workerUrl: URL = WORKER_URL): AnalysisPool {
  const queue: Job[] = [];
  const threads: Thread[] = [];
  /** Set when a worker could not even start: every analysis fails with it rather than respawning forever. */
  let broken: Error | null = null;

  function spawn(): Thread {
    const thread: Thread = { worker: new Worker(workerUrl), ready: false, jobs: [] };
    thread.worker.on('message', (message: WorkerMessage) => {
      if ('ready' in message) {
        thread.ready = true;
        dispatch();
      } else {
        finish(thread, message);
      }
    });
    thread.worker.on('error', (error) => lose(thread, error));
    thread.worker.on('exit', (code) => lose(thread, new Error(`analysis worker exited with code ${code}`)));
    // After the listeners: adding a 'message' listener refs the worker again.
    if (outstanding() === 0) thread.worker.unref();
    return thread;
  }

  function outstanding(): number {
    return queue.length + threads.reduce((sum, thread) => sum + thread.jobs.length, 0);
  }

  /** Workers keep the process alive exactly while some analysis waits for them. */
  function keepAliveWhileBusy(): void {
    const busy = outstanding() > 0;
    for (const thread of threads) {
      if (busy) thread.worker.ref();
      else thread.worker.unref();
    }
  }

  /**
   * A worker died: the job it was working on fails, the ones waiting behind it go back to the front of
   * the queue; a worker that had started is replaced (a page crashed it, say).
   */
  function lose(thread: Thread, error: Error): void {
    const index = threads.indexOf(thread);
    if (index === -1) return;
    const [current, ...waiting] = thread.jobs;
    thread.jobs = [];
    current?.reject(error);
    queue.unshift(...waiting);
    if (thread.ready) {
      threads[index] = spawn();
      dispatch();
    } else {
      threads.splice(index, 1);
      broken = new Error(`analysis worker could not start: ${error.message}`, { cause: error });
      for (const queued of queue.splice(0)) queued.reject(broken);
    }
    keepAliveWhileBusy();
  }

  function finish(thread: Thread, message: Exclude<WorkerMessage, { ready: true }>): void {
    const job = thread.jobs.shift();
    if (job) {
      for (const failure of message.failures) job.onCheckFailure?.(failure.checkId, toError(failure.error));
      if ('analysis' in message) job.resolve(message.analysis);
      else if ('result' in message) job.resolve(message.result);
      else job.reject(toError(message.error));
    }
    dispatch();
  }

  /** Idle threads first, then a task waiting behind each busy one. */
  function dispatch(): void {
    for (let depth = 0; depth < TASKS_PER_THREAD; depth++) {
      for (const thread of threads) {
        if (!thread.ready || thread.jobs.length !== depth || queue.length === 0) continue;
        const job = queue.shift()!;
        thread.jobs.push(job);
        thread.worker.postMessage(job.task);
      }
    }
    keepAliveWhileBusy();
  }

  function run<T>(task: AnalysisTask | ParsingTask, onCheckFailure?: CheckFailureLogger): Promise<T> {
    if (broken) return Promise.reject(broken);
    return new Promise<T>((resolve, reject) => {
      queue.push({ task, onCheckFailure, resolve: resolve as (result: unknown) => void, reject });
      dispatch();
    });
  }

  for (let i = 0; i < size; i++) threads.push(spawn());
  return {
    analyze: (task, onCheckFailure) => run<Analysis>(task, onCheckFailure),
    robots: (question) => run<ParsingResults['robots']>({ kind: 'robots', question }),
    robotsSitemaps: (text) => run<ParsingResults['robots-sitemaps']>({ kind: 'robots-sitemaps', text }),
    parseSitemap: (bytes, charsetLabel) => run<ParsingResults['sitemap']>({ kind: 'sitemap', bytes, charsetLabel }),
  };
}
