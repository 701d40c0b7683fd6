import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUNDLED_SANDBOX_CONFIG, generateSandboxSecrets } from '../../../adapters/sandbox-server/index.js';
import type { SandboxSchedules } from '../../../adapters/memory/index.js';
import { startCli, type CliProcess } from '../../support/cli-process.js';

/** A `paystate demo` process on the shared database, and the URL it serves. */
export interface SandboxInstance {
  readonly name: string;
  readonly url: string;
  readonly process: CliProcess;
}

/** The files every instance of one sandbox starts from: the database URL, and a config with shared secrets. */
export interface SandboxFiles {
  readonly urlFile: string;
  readonly configFile: string;
  readonly secrets: ReturnType<typeof generateSandboxSecrets>;
}

/** Writes the URL and the bundled config with new shared secrets and `schedules` to a folder of their own. */
export function sandboxFiles(connectionString: string, schedules: SandboxSchedules): SandboxFiles {
  const dir = mkdtempSync(join(tmpdir(), 'paystate-instances-'));
  const urlFile = join(dir, 'database-url');
  const configFile = join(dir, 'config.json');
  const secrets = generateSandboxSecrets(new Date());
  writeFileSync(urlFile, `${connectionString}\n`, { mode: 0o600 });
  writeFileSync(configFile, JSON.stringify({ ...BUNDLED_SANDBOX_CONFIG, secrets, schedules }), { mode: 0o600 });
  return { urlFile, configFile, secrets };
}

/**
 * Starts `paystate demo --database-url-file … --config …` as its own process (behind a load
 * balancer at `publicUrl`, if given); resolves once it listens.
 */
export async function startInstance(name: string, files: SandboxFiles, publicUrl?: string): Promise<SandboxInstance> {
  const process = startCli([
    'demo',
    '--port',
    '0',
    '--database-url-file',
    files.urlFile,
    '--config',
    files.configFile,
    ...(publicUrl === undefined ? [] : ['--public-url', publicUrl]),
  ]);
  await process.waitFor(/listening on http:\/\/\S+/, 'stdout', 90_000);
  const url = /listening on (http:\/\/\S+)/.exec(process.stdout())?.[1] ?? '';
  return { name, url, process };
}

/** Ends an instance: gracefully (SIGTERM, waiting for its exit) or at once (SIGKILL, as a crash). */
export async function stopInstance(instance: SandboxInstance, signal: 'SIGTERM' | 'SIGKILL'): Promise<void> {
  if (instance.process.child.exitCode !== null || instance.process.child.signalCode !== null) return;
  instance.process.child.kill(signal);
  await instance.process.exited;
}

/** The same URL on another instance (as a load balancer would send the next request there). */
export function on(instance: SandboxInstance, url: string): string {
  const target = new URL(url);
  const base = new URL(instance.url);
  target.host = base.host;
  return target.toString();
}
