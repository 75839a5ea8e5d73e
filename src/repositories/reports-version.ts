// An account's reports version: a number that moves in every transaction that changes any of its
// reports or projects (added, deleted, re-scored, made private, given a password...). What is costly to
// make from them (a url search's count, a list's answer) is kept in memory under it and is current
// exactly while it has not moved; being in the database, it holds for every server process. The
// repository functions that write reports or projects rows move it themselves, so no caller can forget.
//
// Moving it locks the account's row until the transaction ends. A transaction that also writes a
// project's row (or locks it: lockProject) must do that first: with the account's row always taken
// last, two transactions on PostgreSQL never wait on each other in a cycle (a deadlock).
import { preparedRead } from '../db/prepared-reads.ts';
import type { DbExecutor } from './executor.ts';

export async function bumpReportsVersion(db: DbExecutor, userIds: readonly number[]): Promise<void> {
  if (userIds.length === 0) return;
  await db
    .updateTable('users')
    .set((eb) => ({ reports_version: eb('reports_version', '+', 1) }))
    .where('id', 'in', userIds)
    .execute();
}

/** undefined when there is no such account. */
export async function readReportsVersion(db: DbExecutor, userId: number): Promise<number | undefined> {
  const [row] = await readVersion(db, null, { userId });
  return row?.reports_version;
}

const readVersion = preparedRead((db, _shape: null, p: { userId: number }) =>
  db.selectFrom('users').select('reports_version').where('id', '=', p.userId),
);
