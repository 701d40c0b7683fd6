import { createServer, Socket, type AddressInfo, type Server } from 'node:net';

/*
 * A TCP proxy between a pool and the server that can lose the answer of a statement: the
 * statement reaches the server and runs (and commits), and the connection is cut before its
 * answer reaches the client. The client sees a connection lost in the middle of a write whose
 * outcome it cannot know, as when a network path fails or a load balancer drops the connection.
 */

export interface CuttingProxy {
  /** The connection string that goes through the proxy. */
  readonly connectionString: string;
  /**
   * Loses the answer of the next `times` (default 1) statements whose bytes contain `marker` (a
   * prepared statement's name, which `Parse` and `Bind` both carry, or a piece of its SQL). Calls
   * for several markers add up.
   */
  loseAnswers(marker: string, times?: number): void;
  /** How many answers of each marker are still to be lost. */
  pending(): Record<string, number>;
  /**
   * Every connection open now goes dark: nothing more passes either way, and neither end is told
   * (no FIN, no RST), as when a firewall or NAT forgets the flows, or a failed-over server's
   * address vanishes. Connections opened afterwards work.
   */
  blackholeOpenConnections(): void;
  /** How many answers were lost so far. */
  readonly lost: number;
  close(): Promise<void>;
}

export async function startCuttingProxy(connectionString: string): Promise<CuttingProxy> {
  const target = new URL(connectionString);
  const sockets = new Set<Socket>();
  /** One per open connection: makes it drop everything from now on. */
  const darkeners = new Set<() => void>();
  const armed = new Map<string, number>();
  const take = (chunk: Buffer): boolean => {
    for (const [marker, times] of armed) {
      if (times > 0 && chunk.includes(Buffer.from(marker, 'utf8'))) {
        armed.set(marker, times - 1);
        return true;
      }
    }
    return false;
  };
  let lost = 0;
  const server: Server = createServer((client) => {
    const upstream = new Socket();
    sockets.add(client);
    sockets.add(upstream);
    let cutOnAnswer = false;
    let dark = false;
    const darken = () => {
      dark = true;
    };
    darkeners.add(darken);
    const cut = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', cut);
    upstream.on('error', cut);
    client.on('close', () => {
      darkeners.delete(darken);
      sockets.delete(client);
      upstream.destroy();
    });
    upstream.on('close', () => {
      sockets.delete(upstream);
      client.destroy();
    });
    client.on('data', (chunk: Buffer) => {
      if (dark) return;
      if (take(chunk)) cutOnAnswer = true;
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (dark) return;
      if (cutOnAnswer) {
        // The server has answered (so it ran the statement, and committed it): the client never hears.
        lost += 1;
        cut();
        return;
      }
      client.write(chunk);
    });
    upstream.connect(Number(target.port), target.hostname);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxied = new URL(connectionString);
  proxied.hostname = '127.0.0.1';
  proxied.port = String((server.address() as AddressInfo).port);
  return {
    connectionString: proxied.toString(),
    loseAnswers: (marker, times = 1) => {
      armed.set(marker, (armed.get(marker) ?? 0) + times);
    },
    pending: () => Object.fromEntries(armed),
    blackholeOpenConnections: () => {
      for (const darken of darkeners) darken();
      darkeners.clear();
    },
    get lost() {
      return lost;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
