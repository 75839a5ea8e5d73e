import { sql } from 'kysely';
import type { DbExecutor } from './executor.ts';

/** Resolves when the database answers a trivial query. */
export async function pingDatabase(db: DbExecutor): Promise<void> {
  await sql`select 1`.execute(db);
}
