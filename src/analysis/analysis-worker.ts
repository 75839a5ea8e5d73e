// One thread of the analysis pool: runs analyzePage (parse, checks, score) for the main thread, so
// the server's event loop is not blocked for the milliseconds (or, for a multi-megabyte page, the
// hundreds of milliseconds) a page takes.
import { parentPort } from 'node:worker_threads';
import { analyzePage } from './analyze-page.ts';
import { decodePage } from '../fetch/decode-page.ts';
import type { AnalysisTask, CheckFailure, PlainError, WorkerMessage } from './analysis-pool.ts';

function plainError(error: unknown): PlainError {
  return error instanceof Error
    ? { name: error.name, message: error.message, stack: error.stack }
    : { name: 'Error', message: String(error) };
}

parentPort!.on('message', (task: AnalysisTask) => {
  const failures: CheckFailure[] = [];
  let reply: WorkerMessage;
  try {
    const onCheckFailure = (checkId: string, error: unknown) => failures.push({ checkId, error: plainError(error) });
    const analysis = analyzePage(decodePage(task.page), task.origin, task.thresholds, onCheckFailure, task.generatedAt, task.withCrawlFacts, task.rendering);
    reply = { analysis, failures };
  } catch (error) {
    reply = { error: plainError(error), failures };
  }
  parentPort!.postMessage(reply);
});
parentPort!.postMessage({ ready: true } satisfies WorkerMessage);
