/**
 * The servers of the HTTP benchmark (`http-bench.ts`), each tree's in a child process of its own
 * so that the load generator does not share their event loop: this file, forked with
 * `SERVE_FLAG`, serves the sandbox server of the tree it is given (and the bare endpoint).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { startSandboxServer } from '../adapters/sandbox-server/index.js';
import { collectGarbage } from './measure.js';

export const SERVE_FLAG = '--http-bench-serve';
/** The sandbox's sweeper interval (its default), and how long `settle` waits for a sweep. */
const SWEEP_INTERVAL_MS = 1000;
const SETTLE_MS = SWEEP_INTERVAL_MS + 500;

export interface ServerPorts {
  readonly sandbox: number;
  readonly bare?: number;
}

function bareJsonListener(req: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    let status = 201;
    let body: string;
    try {
      const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { amount?: unknown };
      body = JSON.stringify({ id: 'payment_0', amount: parsed.amount, state: 'processing' });
    } catch {
      status = 400;
      body = JSON.stringify({ code: 'invalid_json' });
    }
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
}

/**
 * Child process: the sandbox server of the tree at `root` (and, with `bare`, the bare endpoint) on
 * free ports; reports them to the parent, runs until disconnected. On `settle` it waits for a
 * sweep of the sandbox's background worker (which delivers the events of the creates before) and
 * collects garbage, then answers `settled`: work the create runs left behind is done before the
 * next run, rather than falling on whichever endpoint runs next.
 */
async function serve(root: string, withBare: boolean): Promise<void> {
  const entry = pathToFileURL(join(root, 'adapters', 'sandbox-server', 'index.ts')).href;
  const { startSandboxServer: start } = (await import(entry)) as { startSandboxServer: typeof startSandboxServer };
  // No limit per client: the benchmark sends as many requests as the server takes, on one token.
  const sandbox = await start({ port: 0, sweepIntervalMs: SWEEP_INTERVAL_MS, rateLimit: false });
  const bare = withBare ? createServer(bareJsonListener) : undefined;
  if (bare !== undefined) await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
  const ports: ServerPorts = {
    sandbox: sandbox.port,
    ...(bare !== undefined && { bare: (bare.address() as AddressInfo).port }),
  };
  process.on('message', (message) => {
    if (message !== 'settle') return;
    setTimeout(() => {
      collectGarbage();
      process.send?.('settled');
    }, SETTLE_MS);
  });
  process.send?.(ports);
  process.on('disconnect', () => {
    bare?.close();
    void sandbox.close().then(() => process.exit(0));
  });
}

export interface Servers {
  readonly child: ChildProcess;
  readonly ports: ServerPorts;
}

/** Forks this file to serve the tree at `root` (see `serve`). */
export function startServers(root: string, withBare: boolean): Promise<Servers> {
  const args = [SERVE_FLAG, root, ...(withBare ? ['--bare'] : [])];
  const child = fork(fileURLToPath(import.meta.url), args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('message', (ports) => resolve({ child, ports: ports as ServerPorts }));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`benchmark server of ${root} exited with code ${code}`)));
  });
}

/** Disconnects a server process and waits (at most 5 s) for it to exit. */
export function stopServers(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill();
      resolve();
    }, 5000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    if (child.connected) child.disconnect();
  });
}

/** Asks a server process to settle (see `serve`). */
function settleOne(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`benchmark server exited with code ${code}`));
    child.once('exit', onExit);
    child.once('message', () => {
      child.off('exit', onExit);
      resolve();
    });
    child.send('settle');
  });
}

/** Settles every server process, then collects this process's garbage too. */
export async function settle(children: readonly ChildProcess[]): Promise<void> {
  await Promise.all(children.map(settleOne));
  collectGarbage();
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
const serveAt = process.argv.indexOf(SERVE_FLAG);
if (isMain && serveAt !== -1) {
  const root = process.argv[serveAt + 1];
  if (root === undefined) throw new Error(`${SERVE_FLAG} needs the root of the tree to serve`);
  void serve(root, process.argv.includes('--bare'));
}
