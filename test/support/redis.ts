// Whether the test Redis answers, for the tests that need one: they skip without it, unless
// PAGEGRADE_REQUIRE_REDIS=1 (CI), where a missing Redis must fail the run instead of hiding the tests.
import { createConnection } from 'node:net';

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

function redisAnswers(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolveAnswer) => {
    const socket = createConnection({ host: hostname, port: Number(port) || 6379 });
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.end();
      resolveAnswer(true);
    });
    socket.once('error', () => resolveAnswer(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolveAnswer(false);
    });
  });
}

/** True when Redis answers; false to skip; throws when it does not answer and is required. */
export async function testRedisAvailable(url = TEST_REDIS_URL): Promise<boolean> {
  const available = await redisAnswers(url);
  if (!available && process.env.PAGEGRADE_REQUIRE_REDIS === '1') {
    throw new Error(`Redis at ${url} does not answer, and PAGEGRADE_REQUIRE_REDIS=1`);
  }
  return available;
}
