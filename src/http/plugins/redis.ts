// The shared Redis connection, when REDIS_URL is set: the rate limit's store, so the limit holds
// across every server process. Without REDIS_URL each process counts on its own.
import { Redis } from 'ioredis';
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    redis: Redis | null;
  }
}

export async function registerRedis(app: FastifyInstance, redisUrl: string | undefined): Promise<void> {
  if (redisUrl === undefined) {
    app.decorate('redis', null);
    return;
  }
  const redis = new Redis(redisUrl, {
    // Fail a command quickly rather than hold requests while Redis is away.
    connectTimeout: 2000,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: true,
    lazyConnect: true,
  });
  redis.on('error', (error) => app.log.error({ err: error }, 'redis connection error'));
  await redis.connect();
  app.decorate('redis', redis);
  app.addHook('onClose', async () => {
    await redis.quit();
  });
}
