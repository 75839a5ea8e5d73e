// Keeps a PostgreSQL connection's failure from crashing the process or poisoning the pool.
// - pg emits 'error' on a client whose connection drops; pg-pool listens only while the client is
//   idle, so a drop with queries in flight (a database restart under load) was an unhandled 'error'
//   event and killed the server. Every client gets a listener for its whole life.
// - After query_timeout pg rejects the query but keeps the connection, still waiting for an answer that
//   may never come, and the pool would hand it out again: it is closed instead, and the pool drops it.
import type pg from 'pg';

export function guardPostgresPool(pool: pg.Pool, onConnectionError: (error: Error) => void): void {
  pool.on('connect', (client) => {
    client.on('error', onConnectionError);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as { query: unknown }).query = (...args: unknown[]) => {
      const result = query(...args);
      if (result instanceof Promise) {
        result.catch((error: unknown) => {
          if (error instanceof Error && error.message === 'Query read timeout') closeConnection(client);
        });
      }
      return result;
    };
  });
}

function closeConnection(client: pg.PoolClient): void {
  (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
}
