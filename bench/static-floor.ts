// The read benchmark's floor, run as its own process like the server: bare Fastify answering, for
// each query, a prebuilt JSON body of the size pagegrade answers it with. No auth, no database, no
// serialisation: what any Fastify route costs on this machine. Env: PORT, STATIC_BODIES (a JSON file
// of { name: body }); GET /static/<name> answers that body.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const bodies = JSON.parse(readFileSync(process.env.STATIC_BODIES!, 'utf8')) as Record<string, string>;
const app = Fastify({ logger: false });
for (const [name, body] of Object.entries(bodies)) {
  app.get(`/static/${name}`, (_request, reply) => {
    reply.type('application/json; charset=utf-8').send(body);
  });
}
app.get('/ready', async () => ({ ready: true }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
const close = () => void app.close().then(() => process.exit(0));
process.once('SIGTERM', close);
