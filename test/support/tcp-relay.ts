// A TCP relay the test puts between the server and PostgreSQL, to stage outages without touching
// the shared PostgreSQL: `kill` drops every connection and stops listening (a crashed or restarted
// database), `hold` stops passing the database's answers on (a database that stops answering),
// `restore` listens again on the same port and passes everything, held bytes included.
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TcpRelay {
  port: number;
  /** Connections accepted so far. */
  accepted(): number;
  hold(): void;
  kill(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

interface Pair {
  client: Socket;
  upstream: Socket;
  /** The database's answers held back. */
  held: Buffer[];
}

export async function startTcpRelay(targetPort: number, targetHost = '127.0.0.1'): Promise<TcpRelay> {
  const pairs = new Set<Pair>();
  let held = false;
  let accepted = 0;
  let port = 0;
  let server: Server;

  function relay(client: Socket): void {
    accepted += 1;
    const upstream = connect(targetPort, targetHost);
    const pair: Pair = { client, upstream, held: [] };
    pairs.add(pair);
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => {
      if (held) pair.held.push(chunk);
      else client.write(chunk);
    });
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  }

  async function listen(): Promise<void> {
    server = createServer(relay);
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  }

  async function kill(): Promise<void> {
    for (const { client, upstream } of pairs) {
      client.destroy();
      upstream.destroy();
    }
    pairs.clear();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  await listen();
  return {
    port,
    accepted: () => accepted,
    hold() {
      held = true;
    },
    kill,
    async restore() {
      held = false;
      for (const pair of pairs) for (const chunk of pair.held.splice(0)) pair.client.write(chunk);
      if (!server.listening) await listen();
    },
    close: kill,
  };
}

/** The same connection string, through the relay. */
export function throughRelay(databaseUrl: string, relay: TcpRelay): string {
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String(relay.port);
  return url.toString();
}
