// SQLite in WAL mode copies the WAL back into the database (a checkpoint, with two fsyncs) inside
// whichever commit crosses 1,000 pages, so every fiftieth report creation stalled the server's one
// thread for tens of milliseconds (commits measured: mean 0.65 ms with automatic checkpoints, 0.28 ms
// without; p99 19.5 ms vs 5.4 ms). A thread of its own runs them every second instead, and the
// server's commits checkpoint only past a WAL of 64 MiB, which the thread keeps the WAL far below
// while writes pause now and then. If that thread ever fails, SQLite's default comes back.
//
// The limit stays because writes without pauses would otherwise grow it for ever
// (seeding a million reports left a 42 GB WAL): SQLite starts the WAL over only when a write begins
// after every frame was copied, and a PASSIVE checkpoint beside a back-to-back writer never gets
// there. Past the limit each commit checkpoints what the thread has not copied yet, and the next
// write starts the WAL over.
import { Worker } from 'node:worker_threads';
import type SqliteDatabase from 'better-sqlite3';

const CHECKPOINT_INTERVAL_MS = 1_000;
/** 64 MiB of 4 KiB pages: past this, commits checkpoint themselves. */
const MAX_WAL_PAGES = 16_384;
/** SQLite's default, restored when the checkpointer stops working. */
const AUTO_CHECKPOINT_PAGES = 1_000;

export interface Checkpointer {
  /**
   * Resolves once the thread has closed its connection and exited. Await it before the process ends:
   * the thread does not keep the process alive, and a connection cut off unclosed leaves the WAL file
   * behind (SQLite removes it when the last connection closes cleanly).
   */
  stop(): Promise<void>;
}

export interface CheckpointerOptions {
  onFailure?: (message: string) => void;
  /** the WAL size, in pages, past which commits checkpoint themselves */
  maxWalPages?: number;
}

export function startCheckpointer(database: SqliteDatabase.Database, filename: string, options: CheckpointerOptions = {}): Checkpointer {
  const onFailure = options.onFailure ?? ((message) => console.error(`SQLite checkpointer stopped: ${message}`));
  database.pragma(`wal_autocheckpoint = ${options.maxWalPages ?? MAX_WAL_PAGES}`);
  const worker = new Worker(new URL('./sqlite-checkpoint-worker.mjs', import.meta.url), {
    workerData: { filename, intervalMs: CHECKPOINT_INTERVAL_MS },
  });
  // The thread must never keep a process alive that is otherwise done.
  worker.unref();
  let stopping = false;
  const fallBack = (message: string) => {
    if (stopping || !database.open) return;
    database.pragma(`wal_autocheckpoint = ${AUTO_CHECKPOINT_PAGES}`);
    onFailure(message);
  };
  worker.on('message', (message: { error?: string }) => {
    if (message.error) fallBack(message.error);
  });
  worker.on('error', (error) => fallBack(error.message));
  worker.on('exit', (code) => {
    if (code !== 0) fallBack(`thread exited with code ${code}`);
  });
  let running = true;
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  void exited.then(() => (running = false));
  return {
    stop() {
      stopping = true;
      if (running) {
        // Held now until it has closed and exited: an unreferenced thread would let the process end first.
        worker.ref();
        worker.postMessage('stop');
      }
      return exited;
    },
  };
}
