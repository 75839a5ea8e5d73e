// The PostgreSQL introspection sees the current schema only, so a migration is blind to what other
// schemas of the same database hold or drop meanwhile.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createScratchDatabase } from '../../test/support/databases.ts';
import { createDb } from './database.ts';
import { migrateToLatest } from './migrate.ts';

describe.skipIf(!process.env.TEST_DATABASE_URL)('PostgreSQL introspection', () => {
  it('lists the tables of the current schema alone, and migrates while another schema drops tables', async () => {
    const [ours, theirs] = await Promise.all([createScratchDatabase('postgres'), createScratchDatabase('postgres')]);
    const mine = createDb(ours.databaseUrl);
    const other = createDb(theirs.databaseUrl);
    try {
      await sql`create table ours_only (id integer)`.execute(mine.db);
      await sql`create table theirs_only (id integer)`.execute(other.db);
      const tables = await mine.db.introspection.getTables({ withInternalKyselyTables: true });
      expect(tables.map((table) => table.name)).toEqual(['ours_only']);

      // Another schema's tables come and go while this one migrates: never "relation does not exist".
      let churning = true;
      const churn = (async () => {
        for (let round = 0; churning; round++) {
          await sql`create table ${sql.raw(`churn_${round}`)} (id serial primary key, a text, b text)`.execute(other.db);
          await sql`drop table ${sql.raw(`churn_${round}`)}`.execute(other.db);
        }
      })();
      try {
        await migrateToLatest(mine.db);
      } finally {
        churning = false;
        await churn;
      }
      const migrated = await mine.db.introspection.getTables({ withInternalKyselyTables: true });
      expect(migrated.map((table) => table.name)).toEqual(expect.arrayContaining(['reports', 'kysely_migration', 'ours_only']));
      expect(migrated.map((table) => table.name)).not.toContain('theirs_only');
    } finally {
      await mine.destroy();
      await other.destroy();
      await Promise.all([ours.drop(), theirs.drop()]);
    }
  });
});
