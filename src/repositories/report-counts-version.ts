// An account's report counts version: a number that moves in every transaction that may change how
// many of its reports match some filter (a report added, deleted or re-scored, a project deleted).
// Counts that are costly to make (a url search must look at every report) are kept under it and are
// current exactly while it has not moved; being in the database, it holds for every server process.
import { preparedRead } from '../db/prepared-reads.ts';
import type { DbExecutor } from './executor.ts';

export async function bumpReportCountsVersion(db: DbExecutor, userIds: readonly number[]): Promise<void> {
  if (userIds.length === 0) return;
  await db
    .updateTable('users')
    .set((eb) => ({ report_counts_version: eb('report_counts_version', '+', 1) }))
    .where('id', 'in', userIds)
    .execute();
}

/** undefined when there is no such account. */
export async function readReportCountsVersion(db: DbExecutor, userId: number): Promise<number | undefined> {
  const [row] = await readVersion(db, null, { userId });
  return row?.report_counts_version;
}

const readVersion = preparedRead((db, _shape: null, p: { userId: number }) =>
  db.selectFrom('users').select('report_counts_version').where('id', '=', p.userId),
);
