// The SQLite checkpointer's thread (sqlite-checkpointer.ts): its own connection to the database file,
// copying committed pages from the WAL into the database every interval. PASSIVE never waits for or
// blocks readers and writers; what it cannot copy now it copies next time. Plain JavaScript, so the
// thread needs no TypeScript loader.
import { parentPort, workerData } from 'node:worker_threads';
import SqliteDatabase from 'better-sqlite3';

const { filename, intervalMs } = workerData;
const database = new SqliteDatabase(filename, { fileMustExist: true });
database.pragma('busy_timeout = 0');

const timer = setInterval(() => {
  try {
    database.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    // Busy or locked: the next tick tries again. Anything else is reported and ends the thread.
    if (!(error instanceof Error && /busy|locked/i.test(error.message))) {
      parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) });
      clearInterval(timer);
      database.close();
    }
  }
}, intervalMs);

parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  database.close();
  parentPort.close();
});
