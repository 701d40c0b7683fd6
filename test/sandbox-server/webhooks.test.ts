import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandboxServer, type SandboxServer } from '../../adapters/sandbox-server/index.js';
import { parseWebhookEvent } from '../../adapters/webhooks/index.js';
import { directRequest } from '../support/requests.js';
import { startReceiver, type Receiver } from '../webhooks/support/webhook-receiver.js';
import { SECRET } from '../webhooks/support/webhook-engine.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PCI = 'sandbox_pci_compliant_token';

let server: SandboxServer | undefined;
let receiver: Receiver | undefined;
let child: ChildProcess | undefined;
afterEach(async () => {
  if (child !== undefined && child.exitCode === null) child.kill('SIGKILL');
  child = undefined;
  await server?.close();
  server = undefined;
  await receiver?.close();
  receiver = undefined;
});

/** Creates a direct payment (approved at once) on the sandbox at `url`. */
async function payDirect(url: string): Promise<string> {
  const response = await fetch(`${url}/v1/profiles/profile_webshop/payments`, {
    method: 'POST',
    headers: { authorization: `Bearer ${PCI}`, 'content-type': 'application/json' },
    body: JSON.stringify(directRequest('4242424242424242')),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** Waits until the receiver holds `count` requests. */
async function received(count: number): Promise<NonNullable<typeof receiver>['requests']> {
  for (let waited = 0; (receiver?.requests.length ?? 0) < count; waited += 20) {
    if (waited > 10_000) throw new Error(`the receiver got ${receiver?.requests.length} requests, not ${count}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return receiver?.requests ?? [];
}

/** The events of the requests, verified with `secret`. */
const eventsOf = (requests: Receiver['requests'], secret: string) =>
  requests.map((request) => {
    const event = parseWebhookEvent({
      payload: request.body,
      header: request.headers['paystate-signature'],
      secrets: secret,
    });
    return event.isOk() ? `${event.value.type} ${event.value.data.payment.id}` : event.error.code;
  });

describe('the sandbox server with a webhook', () => {
  it('POSTs every event, signed, to the webhook besides logging it', async () => {
    receiver = await startReceiver();
    const lines: string[] = [];
    const log = (fields: Record<string, unknown>, message: string) =>
      lines.push(`${message} ${String(fields['type'])}`);
    server = await startSandboxServer({
      port: 0,
      sweepIntervalMs: 20,
      logger: { debug: log, info: log, warn: log, error: log },
      webhook: {
        url: `${receiver.origin}/hooks`,
        secrets: SECRET,
        allowInsecureHttp: true,
        allowPrivateNetworks: true,
      },
    });
    const id = await payDirect(server.url);
    expect(eventsOf(await received(2), SECRET)).toEqual([`payment.created ${id}`, `payment.succeeded ${id}`]);
    expect(lines).toEqual(expect.arrayContaining(['event payment.created', 'event payment.succeeded']));
  });

  it('refuses a bad webhook URL before it listens', async () => {
    await expect(
      startSandboxServer({ port: 0, webhook: { url: 'http://127.0.0.1:1/hooks', secrets: SECRET } }),
    ).rejects.toThrow(RangeError);
  });

  it('refuses a webhook on a loopback or private address unless allowPrivateNetworks says otherwise', async () => {
    await expect(
      startSandboxServer({
        port: 0,
        webhook: { url: 'http://127.0.0.1:4000/hooks', secrets: SECRET, allowInsecureHttp: true },
      }),
    ).rejects.toThrow(/webhook url is a loopback address/);
    await expect(
      startSandboxServer({ port: 0, webhook: { url: 'https://169.254.169.254/latest', secrets: SECRET } }),
    ).rejects.toThrow(/link-local/);
  });
});

/** `paystate demo …` as `npm run demo` runs it, with its output. */
function demo(args: readonly string[]) {
  const started = spawn(process.execPath, ['--import', 'tsx', 'bin/paystate.ts', 'demo', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child = started;
  let stdout = '';
  let stderr = '';
  started.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  started.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => started.once('exit', (code) => resolve(code)));
  return {
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    async waitFor(pattern: RegExp): Promise<RegExpExecArray> {
      for (let waited = 0; ; waited += 50) {
        const match = pattern.exec(stdout);
        if (match !== null) return match;
        if (waited > 30_000) throw new Error(`timed out waiting for ${pattern}; got:\n${stdout}\n${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}

describe('paystate demo --webhook-url', () => {
  it('prints a generated secret once, and signs every event with it', async () => {
    receiver = await startReceiver();
    const run = demo(['--port', '0', '--webhook-url', `${receiver.origin}/hooks`]);
    const [, url] = await run.waitFor(/listening on (http:\/\/\S+)/);
    const [, secret] = await run.waitFor(
      /Webhooks: every event is also POSTed to \S+\/hooks, [^\n]*\n {2}(whsec_\S+)\n/,
    );
    const id = await payDirect(url ?? '');
    expect(eventsOf(await received(2), secret ?? '')).toEqual([`payment.created ${id}`, `payment.succeeded ${id}`]);
    expect(run.stdout().split(secret ?? '')).toHaveLength(2);
  });

  it('signs with the --webhook-secret given, and never prints it', async () => {
    receiver = await startReceiver();
    const run = demo(['--port', '0', '--webhook-url', `${receiver.origin}/hooks`, '--webhook-secret', SECRET]);
    const [, url] = await run.waitFor(/listening on (http:\/\/\S+)/);
    await run.waitFor(/signed \(Paystate-Signature\) with the --webhook-secret given/);
    const id = await payDirect(url ?? '');
    expect(eventsOf(await received(2), SECRET)).toEqual([`payment.created ${id}`, `payment.succeeded ${id}`]);
    expect(run.stdout()).not.toContain(SECRET);
  });

  // The secret given as an argument is shown by ps to every user of the machine.
  it('signs with the secret of --webhook-secret-file, and never prints it', async () => {
    receiver = await startReceiver();
    const file = join(await mkdtemp(join(tmpdir(), 'paystate-webhook-')), 'secret');
    await writeFile(file, `${SECRET}\n`, { mode: 0o600 });
    const run = demo(['--port', '0', '--webhook-url', `${receiver.origin}/hooks`, '--webhook-secret-file', file]);
    const [, url] = await run.waitFor(/listening on (http:\/\/\S+)/);
    await run.waitFor(/signed \(Paystate-Signature\) with the --webhook-secret-file given/);
    const id = await payDirect(url ?? '');
    expect(eventsOf(await received(2), SECRET)).toEqual([`payment.created ${id}`, `payment.succeeded ${id}`]);
    expect(run.stdout() + run.stderr()).not.toContain(SECRET);
  });

  it('--webhook-scheme standard-webhooks: a generated whsec_ secret, and events the standardwebhooks library verifies', async () => {
    receiver = await startReceiver();
    const run = demo([
      '--port',
      '0',
      '--webhook-url',
      `${receiver.origin}/hooks`,
      '--webhook-scheme',
      'standard-webhooks',
    ]);
    const [, url] = await run.waitFor(/listening on (http:\/\/\S+)/);
    const [, secret] = await run.waitFor(/signed \(webhook-signature\) with [^\n]*\n {2}(whsec_\S+)\n/);
    const id = await payDirect(url ?? '');
    const verifier = new Webhook(secret ?? '');
    const types = (await received(2)).map((request) => {
      const headers = Object.fromEntries(
        ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => [name, String(request.headers[name])]),
      );
      const event = verifier.verify(request.body.toString('utf8'), headers) as {
        type: string;
        data: { payment: { id: string } };
      };
      return `${event.type} ${event.data.payment.id}`;
    });
    expect(types).toEqual([`payment.created ${id}`, `payment.succeeded ${id}`]);
    // The default scheme's secret is not one the library reads.
    expect(eventsOf(receiver.requests, secret ?? '')).not.toContain(`payment.created ${id}`);
  });

  it('refuses a --webhook-secret-file that is short, empty, unreadable, or given with --webhook-secret, repeating no secret', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'paystate-webhook-'));
    const short = join(dir, 'short');
    await writeFile(short, 'too-short-secret\n');
    const empty = join(dir, 'empty');
    await writeFile(empty, '');
    const hooks = ['--webhook-url', 'http://127.0.0.1:9/hooks'];
    const cases: [readonly string[], string][] = [
      [[...hooks, '--webhook-secret-file', short], '--webhook-secret-file: the secret is too short'],
      [[...hooks, '--webhook-secret-file', empty], `--webhook-secret-file ${empty} is empty`],
      [
        [...hooks, '--webhook-secret-file', join(dir, 'missing')],
        `cannot read --webhook-secret-file ${join(dir, 'missing')} (ENOENT)`,
      ],
      [
        [...hooks, '--webhook-secret', SECRET, '--webhook-secret-file', short],
        'give --webhook-secret or --webhook-secret-file, not both',
      ],
      [['--webhook-secret-file', short], '--webhook-secret-file needs --webhook-url'],
    ];
    for (const [args, message] of cases) {
      const run = demo(['--port', '0', ...args]);
      expect(await run.exited, args.join(' ')).toBe(2);
      const stderr = run.stderr().trimEnd().split('\n');
      expect(stderr).toHaveLength(1);
      expect(stderr[0]).toContain(`paystate: ${message}`);
      for (const secret of ['too-short-secret', SECRET]) expect(stderr[0]).not.toContain(secret);
    }
  });

  it.each([
    [['--webhook-url', 'ftp://127.0.0.1/hooks'], '--webhook-url needs an absolute http(s) URL'],
    [['--webhook-url', 'http://user:pw-secret@127.0.0.1/hooks'], '--webhook-url must not carry credentials'],
    [
      ['--webhook-url', 'http://127.0.0.1/hooks', '--webhook-secret', 'too-short-secret'],
      '--webhook-secret: the secret is too short',
    ],
    [['--webhook-secret', SECRET], '--webhook-secret needs --webhook-url'],
    [['--webhook-url', 'http://127.0.0.1/hooks', '--webhook-scheme', 'svix'], '--webhook-scheme needs paystate or'],
    [['--webhook-scheme', 'standard-webhooks'], '--webhook-scheme needs --webhook-url'],
    [
      ['--webhook-url', 'http://127.0.0.1/hooks', '--webhook-scheme', 'standard-webhooks', '--webhook-secret', SECRET],
      '--webhook-secret:',
    ],
  ])('refuses %j with one line and exit code 2, repeating no secret', async (args, message) => {
    const run = demo(['--port', '0', ...args]);
    expect(await run.exited).toBe(2);
    const stderr = run.stderr().trimEnd().split('\n');
    expect(stderr).toHaveLength(1);
    expect(stderr[0]).toContain(`paystate: ${message}`);
    for (const secret of ['pw-secret', 'too-short-secret', SECRET]) expect(stderr[0]).not.toContain(secret);
  });
});
