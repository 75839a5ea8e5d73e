// The list index's thread (list-index.ts): its own connection to the database, on which it builds one
// account's index at a time and moves the finished arrays to the main thread. Reading and packing an
// account of 10,000 reports costs 70-100 ms of CPU; on the main thread that stalled every request.
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { createDb } from '../db/database.ts';
import { transferables } from './account-list-index.ts';
import { buildIndexParts, type BuildOutcome } from './list-index-build.ts';

export interface ListIndexWorkerData {
  databaseUrl: string | undefined;
  sqliteCacheMb: number;
}

export type BuildRequest = { userId: number; maxBytes: number } | 'stop';

export type BuildReply =
  | { userId: number; outcome: BuildOutcome }
  | { userId: number; error: { name: string; message: string; stack?: string } };

const { databaseUrl, sqliteCacheMb } = workerData as ListIndexWorkerData;
// Builds take the CPU that requests leave: on Linux a thread's nice value is its own (setpriority(2)),
// so this lowers only this thread. At the default, two cores shared by the server, the load and a
// build let requests wait whole scheduler periods (PostgreSQL's default list: p99 27 ms while the
// indexes were built, against 7 ms after).
try {
  setPriority(19);
} catch {
  // Not permitted here: builds run at the server's priority.
}
// One connection: builds run one at a time. SQLite's checkpoints stay with the app's own connection.
const handle = createDb(databaseUrl, { sqliteCacheMb, checkpoints: false, poolSize: 1 });
const port = parentPort!;

port.on('message', async (request: BuildRequest) => {
  if (request === 'stop') {
    await handle.destroy();
    port.close();
    return;
  }
  try {
    const outcome = await buildIndexParts(handle.db, request.userId, request.maxBytes);
    const moved = outcome !== null && 'parts' in outcome ? transferables(outcome.parts) : [];
    port.postMessage({ userId: request.userId, outcome } satisfies BuildReply, moved);
  } catch (error) {
    const plain = error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : { name: 'Error', message: String(error) };
    port.postMessage({ userId: request.userId, error: plain } satisfies BuildReply);
  }
});
