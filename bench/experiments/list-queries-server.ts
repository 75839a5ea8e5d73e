// The least a default report list can cost on SQLite: bare Fastify running the same three statements
// pagegrade runs (API key lookup by SHA-256, the count from the project rows, the page of stored
// summaries) on better-sqlite3, joined into a body of the same size. No validation, rate limit,
// security headers, links or error handling. Env: PORT, DATABASE_FILE. GET /queries needs a Bearer
// key; GET /static answers the body of the first /queries answer, prebuilt. The statements are compiled
// as pagegrade compiles them (value-blind placeholders), so neither side compiles a statement twice a run.
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import { DEFAULT_SQLITE_CACHE_MB } from '../../src/config.ts';
import { withValueBlindPlaceholders } from '../../src/db/sqlite-value-blind-sql.ts';
import { hashApiKey } from '../../src/security/hashing.ts';

const database = new Database(process.env.DATABASE_FILE!, { readonly: true });
// The same page cache as the server's default.
database.pragma(`cache_size = -${DEFAULT_SQLITE_CACHE_MB * 1024}`);
const findKey = database.prepare<[string], { user_id: number }>(
  withValueBlindPlaceholders('select users.id as user_id from api_keys join users on users.id = api_keys.user_id where key_hash = ? and revoked_at is null'),
);
const countReports = database.prepare<[number], { total: number }>(
  withValueBlindPlaceholders('select coalesce(sum(reports_count), 0) as total from projects where user_id = ?'),
);
const pageOfSummaries = database.prepare<[number], { id: number; summary_json: string }>(
  withValueBlindPlaceholders('select id, summary_json from reports where user_id = ? order by id desc limit 100 offset 0'),
);

const app = Fastify({ logger: false });
/** the first answer as bytes made once, as bench/static-floor.ts answers (why: there) */
let prebuilt: Buffer | undefined;
app.get('/queries', (request, reply) => {
  const token = request.headers.authorization?.slice('Bearer '.length) ?? '';
  const key = findKey.get(hashApiKey(token));
  if (!key) return reply.code(401).send({ message: 'Unauthenticated.' });
  const total = countReports.get(key.user_id)!.total;
  const items = pageOfSummaries.all(key.user_id).map((row) => `{"id":${row.id},${row.summary_json.slice(1)}`);
  const body = `{"data":[${items.join(',')}],"meta":{"total":${total}},"status":200}`;
  prebuilt ??= Buffer.from(body);
  return reply.type('application/json; charset=utf-8').send(body);
});
app.get('/static', (_request, reply) => reply.type('application/json; charset=utf-8').send(prebuilt ?? Buffer.alloc(0)));
app.get('/ready', async () => ({ ready: true }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
