// The read benchmark's floor, run as its own process like the server: bare Fastify answering, for
// each query, a prebuilt JSON body of the size pagegrade answers it with. No auth, no database, no
// serialisation: what any Fastify route costs on this machine. Env: PORT, STATIC_BODIES (a JSON file
// of { name: body }); GET /static/<name> answers that body.
// Each body is UTF-8 bytes made once, as pagegrade sends its kept answers: sent as a string, every
// answer would be encoded again, and this floor ran up to a third slower with a 57 KB body (four
// alternating 5 s runs: 6,763 / 8,503 / 8,039 / 7,419 req/s as a string, 6,719 / 13,183 / 12,743 /
// 10,343 as bytes), flattering every ratio against it.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const bodies = JSON.parse(readFileSync(process.env.STATIC_BODIES!, 'utf8')) as Record<string, string>;
const app = Fastify({ logger: false });
for (const [name, text] of Object.entries(bodies)) {
  const body = Buffer.from(text);
  app.get(`/static/${name}`, (_request, reply) => {
    reply.type('application/json; charset=utf-8').send(body);
  });
}
app.get('/ready', async () => ({ ready: true }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
const close = () => void app.close().then(() => process.exit(0));
process.once('SIGTERM', close);
