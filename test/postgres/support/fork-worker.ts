import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** A worker process running a TypeScript script under tsx, with an IPC channel. */
export interface Worker {
  readonly child: ChildProcess;
  /** Sends a request and resolves with the worker's reply of type `reply` carrying the same `id`. */
  request<T>(
    message: { readonly type: string; readonly id: number } & Record<string, unknown>,
    reply: string,
  ): Promise<T>;
  /** Resolves with the first message of `type`. */
  next<T>(type: string): Promise<T>;
  /** Resolves when the process has exited. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(): Promise<void>;
}

/** Forks `script` (a path relative to this folder) with `env` added, and waits for its `ready` message. */
export async function forkWorker(script: string, env: Record<string, string>): Promise<Worker> {
  const path = fileURLToPath(new URL(script, import.meta.url));
  const child = fork(path, [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const next = <T>(type: string) =>
    new Promise<T>((resolve, reject) => {
      const onMessage = (message: unknown) => {
        if ((message as { type?: unknown }).type !== type) return;
        child.off('message', onMessage);
        resolve(message as T);
      };
      child.on('message', onMessage);
      void exited.then(({ code, signal }) =>
        reject(new Error(`worker exited (${code ?? signal}) before sending ${type}`)),
      );
    });
  const request = <T>(
    message: { readonly type: string; readonly id: number } & Record<string, unknown>,
    reply: string,
  ) =>
    new Promise<T>((resolve, reject) => {
      const onMessage = (answer: unknown) => {
        const typed = answer as { type?: unknown; id?: unknown };
        if (typed.type !== reply || typed.id !== message.id) return;
        child.off('message', onMessage);
        resolve(answer as T);
      };
      child.on('message', onMessage);
      void exited.then(({ code, signal }) => reject(new Error(`worker exited (${code ?? signal}) before answering`)));
      child.send(message);
    });
  await next('ready');
  return {
    child,
    request,
    next,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.send({ type: 'stop' });
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}
