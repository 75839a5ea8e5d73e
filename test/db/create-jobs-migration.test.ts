// The embedded queue's table: up makes it with its claim indexes, down removes it.
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/migrate.ts';
import * as createJobs from '../../src/db/migrations/2026-11-26-1600-create-jobs.ts';
import { indexColumns, tableColumns } from '../support/schema.ts';
import { testDialects, withUnmigratedDatabase } from '../support/databases.ts';

describe.each(testDialects())('creating the jobs table [%s]', (dialect) => {
  it('up makes the table and its indexes; down removes them', async () => {
    await withUnmigratedDatabase(dialect, async (db) => {
      await migrateToLatest(db);
      expect((await tableColumns(db, dialect, 'jobs')).sort()).toEqual(
        ['attempts', 'created_at', 'id', 'key', 'kind', 'last_error', 'lease_expires_at', 'lease_token', 'payload', 'run_at', 'state', 'updated_at'],
      );
      expect(await indexColumns(db, dialect, 'jobs_state_run_at_idx')).toEqual(['state', 'run_at']);
      expect(await indexColumns(db, dialect, 'jobs_state_lease_idx')).toEqual(['state', 'lease_expires_at']);
      await createJobs.down(db);
      expect(await tableColumns(db, dialect, 'jobs')).toEqual([]);
      await createJobs.up(db);
      expect(await tableColumns(db, dialect, 'jobs')).toContain('lease_token');
    });
  });
});
