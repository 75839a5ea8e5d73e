// The order in which a SQLite handle closes its two connections. SQLite removes the WAL only as the last
// connection to the file closes; if the checkpoint thread were told to stop while the app's connection
// was still open, the two could close at the same moment on two cores, each still seeing the other, and
// the WAL would stay behind (seen now and then in the graceful-shutdown test under load). So the app's
// connection must be closed before the thread hears of it.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it, vi } from 'vitest';

/** Whether the app's connection was still open each time a checkpoint thread was told to stop. */
const openWhenStopped: boolean[] = [];

vi.mock('../../src/db/sqlite-checkpointer.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/db/sqlite-checkpointer.ts')>();
  return {
    ...original,
    startCheckpointer: (...args: Parameters<typeof original.startCheckpointer>) => {
      const [database] = args;
      const checkpointer = original.startCheckpointer(...args);
      return {
        stop: () => {
          openWhenStopped.push(database.open);
          return checkpointer.stop();
        },
      };
    },
  };
});

const { createDb } = await import('../../src/db/database.ts');

describe('closing a SQLite handle', () => {
  it('closes the app connection before it tells the checkpoint thread to stop, and the WAL goes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pagegrade-close-order-'));
    try {
      const file = join(dir, 'pagegrade.db');
      const handle = createDb(`sqlite:${file}`);
      await sql`create table notes (body text)`.execute(handle.db);
      await sql`insert into notes values ('kept')`.execute(handle.db);
      expect(existsSync(`${file}-wal`)).toBe(true);
      await handle.destroy();
      expect(openWhenStopped).toEqual([false]);
      expect(existsSync(`${file}-wal`)).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
