// The webhook tables: up makes them with the deliveries index, deleting an account or a webhook takes
// what hangs off it along, and down removes both.
import { describe, expect, it } from 'vitest';
import { migrateTo } from '../../src/db/migrate.ts';

// The schema as it was before organisations renamed the owner columns (this test's migration is older).
const BEFORE_ORGANIZATIONS = '2026-12-04-1100-crawl-rich-result-errors';
import * as createWebhooks from '../../src/db/migrations/2026-11-27-0910-create-webhooks.ts';
import { indexColumns, tableColumns } from '../support/schema.ts';
import { testDialects, withUnmigratedDatabase } from '../support/databases.ts';

const AT = '2026-11-27T09:10:00.000Z';

describe.each(testDialects())('creating the webhook tables [%s]', (dialect) => {
  it('up makes the tables and their index; down removes them', async () => {
    await withUnmigratedDatabase(dialect, async (db) => {
      await migrateTo(db, BEFORE_ORGANIZATIONS);
      expect((await tableColumns(db, dialect, 'webhooks')).sort()).toEqual(
        ['created_at', 'events', 'id', 'secret_encrypted', 'url', 'user_id'],
      );
      expect((await tableColumns(db, dialect, 'webhook_deliveries')).sort()).toEqual(
        ['attempts', 'created_at', 'delivered_at', 'event', 'id', 'last_error', 'payload', 'response_status', 'status', 'webhook_id'],
      );
      expect(await indexColumns(db, dialect, 'webhook_deliveries_webhook_created_idx')).toEqual(['webhook_id', 'created_at']);
      await createWebhooks.down(db);
      expect(await tableColumns(db, dialect, 'webhooks')).toEqual([]);
      expect(await tableColumns(db, dialect, 'webhook_deliveries')).toEqual([]);
      await createWebhooks.up(db);
      expect(await tableColumns(db, dialect, 'webhooks')).toContain('secret_encrypted');
    });
  });

  it('deleting the account deletes its webhooks and their deliveries; a status outside the three is refused', async () => {
    await withUnmigratedDatabase(dialect, async (db) => {
      await migrateTo(db, BEFORE_ORGANIZATIONS);
      const user = await db.insertInto('users').values({ email: 'hooks@example.com', is_admin: 0, created_at: AT }).returning('id').executeTakeFirstOrThrow();
      const webhook = await db
        .insertInto('webhooks')
        .values({ user_id: user.id, url: 'https://example.com/hook', events: 'report.completed', secret_encrypted: 'v1.x.y.z', created_at: AT })
        .returning('id')
        .executeTakeFirstOrThrow();
      const delivery = { webhook_id: webhook.id, event: 'report.completed', payload: '{}', status: 'pending', created_at: AT };
      await db.insertInto('webhook_deliveries').values({ id: 'msg_1', ...delivery }).execute();
      await expect(db.insertInto('webhook_deliveries').values({ id: 'msg_2', ...delivery, status: 'lost' }).execute()).rejects.toThrow();
      await db.deleteFrom('users').where('id', '=', user.id).execute();
      expect(await db.selectFrom('webhooks').selectAll().execute()).toEqual([]);
      expect(await db.selectFrom('webhook_deliveries').selectAll().execute()).toEqual([]);
    });
  });
});
