// One thread of the analysis pool: runs analyzePage (parse, checks, score) for the main thread, so
// the server's event loop is not blocked for the milliseconds (or, for a multi-megabyte page, the
// hundreds of milliseconds) a page takes; and the parsing tasks (robots.txt, sitemaps) likewise.
import { parentPort } from 'node:worker_threads';
import { analyzePage } from './analyze-page.ts';
import { decodePage } from '../fetch/decode-page.ts';
import { packResults } from './packed-results.ts';
import type { AnalysisTask, CheckFailure, ParsingTask, PlainError, TaskCrawlLinks, WorkerMessage } from './analysis-pool.ts';
import type { CrawlLinkOptions } from './types.ts';
import type { OriginFacts } from '../fetch/types.ts';
import { runParsingTask } from './pool-tasks.ts';

function plainError(error: unknown): PlainError {
  return error instanceof Error
    ? { name: error.name, message: error.message, stack: error.stack }
    : { name: 'Error', message: String(error) };
}

/** The crawl's options with the robots.txt text back in place when the task left it in the origin facts. */
function crawlLinks(crawl: TaskCrawlLinks | undefined, origin: OriginFacts): CrawlLinkOptions | undefined {
  if (crawl === undefined) return undefined;
  const robotsTxt = typeof crawl.robotsTxt === 'object' && crawl.robotsTxt !== null ? origin.robotsTxt.body : crawl.robotsTxt;
  return { ...crawl, robotsTxt };
}

function analyze(task: AnalysisTask, failures: CheckFailure[]): WorkerMessage {
  const onCheckFailure = (checkId: string, error: unknown) => failures.push({ checkId, error: plainError(error) });
  const crawl = crawlLinks(task.crawl, task.origin);
  const analysis = analyzePage(decodePage(task.page), task.origin, task.thresholds, onCheckFailure, task.generatedAt, crawl, task.rendering, task.lab);
  // Packed here, off the main thread, in the form the run is stored in.
  return { analysis: { ...analysis, packedResults: packResults(analysis.results) }, failures };
}

parentPort!.on('message', (task: AnalysisTask | ParsingTask) => {
  const failures: CheckFailure[] = [];
  let reply: WorkerMessage;
  try {
    reply = 'kind' in task ? { result: runParsingTask(task), failures } : analyze(task, failures);
  } catch (error) {
    reply = { error: plainError(error), failures };
  }
  parentPort!.postMessage(reply);
});
parentPort!.postMessage({ ready: true } satisfies WorkerMessage);
