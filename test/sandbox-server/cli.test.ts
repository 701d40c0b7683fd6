import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { startCli, watchCli, type CliProcess } from '../support/cli-process.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

/** `paystate …` as `npm run demo` runs it (through tsx). */
const cli = (args: readonly string[], env: NodeJS.ProcessEnv = process.env): CliProcess => startCli(args, { env });

let child: ChildProcess | undefined;
afterEach(() => {
  if (child !== undefined && child.exitCode === null) child.kill('SIGKILL');
  child = undefined;
});

/** The printed `curl … -d '…'` commands, as shell text. */
function curlCommands(text: string): string[] {
  return [...text.matchAll(/^curl -sS -X POST[\s\S]*?-d '[^']*'$/gm)].map((match) => match[0]);
}

const SEPARATOR = '=====step=====';

/** The shell commands of a banner section: lines starting `curl ` or `PAYMENT=`, with their `\\` continuations. */
function walkthroughCommands(section: string): string[] {
  const commands: string[] = [];
  let current: string[] | null = null;
  for (const line of section.split('\n')) {
    if (current !== null) current.push(line);
    else if (line.startsWith('curl ') || line.startsWith('PAYMENT=')) current = [line];
    else continue;
    if (!line.endsWith('\\')) {
      commands.push(current.join('\n'));
      current = null;
    }
  }
  return commands;
}

describe('paystate demo', () => {
  it('prints its URL, the sandbox tokens and curl commands that work, and stops on SIGTERM', async () => {
    const out = cli(['demo', '--port', '0']);
    child = out.child;
    await out.waitFor('Press Ctrl+C to stop.');
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out.stdout())?.[1];
    expect(url).toBeDefined();
    for (const token of ['sandbox_pci_compliant_token', 'sandbox_hosted_only_token', 'sandbox_outlet_only_token']) {
      expect(out.stdout()).toContain(token);
    }
    const [hosted, direct] = curlCommands(out.stdout());
    expect(hosted).toBeDefined();
    expect(direct).toBeDefined();

    const hostedPayment = JSON.parse((await run('bash', ['-c', hosted ?? ''])).stdout);
    expect(hostedPayment).toMatchObject({
      state: 'processing',
      next: { redirect: expect.stringContaining(`${url}/pay/`) },
    });
    const directPayment = JSON.parse((await run('bash', ['-c', direct ?? ''])).stdout);
    expect(directPayment).toMatchObject({ state: 'succeeded', creditcard: { card: { last4: '4242' } } });
    // Pasted again, a command makes a new payment: each paste sends a new Idempotency-Key.
    expect(JSON.parse((await run('bash', ['-c', direct ?? ''])).stdout).id).not.toBe(directPayment.id);

    // The read-back command, pasted as printed, is a command (not a shell redirection) that
    // answers a problem; with the id put in, the payment; the self link answers the same.
    const readBack = /^curl -sS (\S+)\/PAYMENT_ID (.*)$/m.exec(out.stdout());
    expect(readBack).not.toBeNull();
    const unedited = JSON.parse((await run('bash', ['-c', readBack?.[0] ?? ''])).stdout);
    expect(unedited.status).toBe(404);
    const read = await run('bash', ['-c', `curl -sS ${readBack?.[1]}/${hostedPayment.id} ${readBack?.[2]}`]);
    expect(JSON.parse(read.stdout)).toEqual(hostedPayment);
    const self = await run('bash', ['-c', `curl -sS ${url}${hostedPayment._links.self.href} ${readBack?.[2]}`]);
    expect(JSON.parse(self.stdout)).toEqual(hostedPayment);

    // The base URL it prints leads a browser to the API reference it names.
    expect(out.stdout()).toContain(`API reference: ${url}/docs`);
    const root = await fetch(`${url}/`, { redirect: 'manual' });
    expect([root.status, root.headers.get('location')]).toEqual([302, '/docs']);
    expect((await fetch(`${url}/`)).headers.get('content-type')).toMatch(/^text\/html/);

    await out.waitFor('http request');
    child.kill('SIGTERM');
    expect(await out.exited).toBe(0);
    expect(out.stdout()).toContain('shutting down');
    expect(out.stdout()).toMatch(/shutting down[\s\S]*stopped/);
    // The banner shows the public test card; the logs after it never contain card data.
    const logs = out.stdout().split('Press Ctrl+C to stop.')[1] ?? '';
    expect(logs).toContain('http request');
    expect(logs).not.toContain('4242424242424242');
  });

  it('--log-format json: after the banner, every log line is one JSON object with time, level and msg', async () => {
    const out = cli(['demo', '--port', '0', '--log-format', 'json']);
    child = out.child;
    await out.waitFor('Press Ctrl+C to stop.');
    const [, direct] = curlCommands(out.stdout());
    await run('bash', ['-c', direct ?? '']);
    await out.waitFor('http request');
    child.kill('SIGTERM');
    expect(await out.exited).toBe(0);
    const lines = (out.stdout().split('Press Ctrl+C to stop.')[1] ?? '').split('\n').filter((line) => line !== '');
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines) {
      expect(JSON.parse(line)).toMatchObject({
        time: expect.any(String),
        level: expect.any(String),
        msg: expect.any(String),
      });
    }
    expect(lines.join('\n')).not.toContain('4242424242424242');
  });

  it('refuses an unknown --log-format with one line and exit code 2', async () => {
    const out = cli(['demo', '--port', '0', '--log-format', 'yaml']);
    expect(await out.exited).toBe(2);
    expect(out.stderr()).toContain('paystate: --log-format needs text or json, got yaml');
  });

  it('prints a capture, refund and cancel walkthrough whose commands, pasted in order in one shell, move the amounts', async () => {
    const out = cli(['demo', '--port', '0']);
    child = out.child;
    await out.waitFor('Press Ctrl+C to stop.');
    const section = out.stdout().split('Capture, refund and cancel')[1]?.split('API reference')[0] ?? '';
    const commands = walkthroughCommands(section);
    expect(commands).toHaveLength(7);
    const [create, capture, refund, cancel, readPayment, readCaptures, readRefunds] = commands;
    // One shell, as a user pastes them: after each step the printed read of the payment runs too.
    const steps = [create, capture, readPayment, refund, readPayment, cancel, readPayment, readCaptures, readRefunds];
    const script = steps.map((step) => `${step ?? 'false'}\necho\necho ${SEPARATOR}`).join('\n');
    const [id, captured, afterCapture, refunded, afterRefund, canceled, afterCancel, captures, refunds] = (
      await run('bash', ['-c', script])
    ).stdout
      .split(SEPARATOR)
      .map((text) => text.trim());
    expect(id).toMatch(/^payment_[0-9a-f]{32}$/);
    expect(JSON.parse(captured ?? '')).toMatchObject({ payment_id: id, amount: 1500, state: 'succeeded' });
    const amounts = (text: string | undefined) => {
      const payment = JSON.parse(text ?? '');
      return [payment.capture_method, payment.amount_capturable, payment.amount_captured, payment.amount_refunded];
    };
    expect(amounts(afterCapture)).toEqual(['manual', 499, 1500, 0]);
    expect(JSON.parse(refunded ?? '')).toMatchObject({ amount: 500, reference: 'demo-refund', state: 'succeeded' });
    expect(amounts(afterRefund)).toEqual(['manual', 499, 1500, 500]);
    expect(amounts(canceled)).toEqual(['manual', 0, 1500, 500]);
    expect(amounts(afterCancel)).toEqual(['manual', 0, 1500, 500]);
    expect(JSON.parse(captures ?? '').items).toEqual([JSON.parse(captured ?? '')]);
    expect(JSON.parse(refunds ?? '').items).toEqual([JSON.parse(refunded ?? '')]);
    // Pasted again, the capture command is a new request (a new Idempotency-Key): nothing is left to capture.
    const again = await run('bash', ['-c', `PAYMENT=${id}\n${capture ?? 'false'}`]);
    expect(JSON.parse(again.stdout)).toMatchObject({ status: 409, code: 'payment_not_capturable' });
    child.kill('SIGTERM');
    expect(await out.exited).toBe(0);
  });

  it('run by `npm run demo`, stops when npm is sent SIGTERM (the shell between them does not pass it on)', async () => {
    const npm = spawn('npm', ['run', '--silent', 'demo', '--', '--port', '0'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = npm;
    const out = watchCli(npm);
    await out.waitFor('Press Ctrl+C to stop.');
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out.stdout())?.[1] ?? '';
    expect((await fetch(`${url}/openapi.json`)).status).toBe(200);
    npm.kill('SIGTERM');
    await out.exited;
    // The server under the shell stops too: its port refuses connections.
    let answering = true;
    for (let waited = 0; answering && waited < 10_000; waited += 100) {
      answering = await fetch(`${url}/openapi.json`).then(
        () => true,
        () => false,
      );
      if (answering) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(answering).toBe(false);
  });

  it('uses --config and does not print its tokens', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'paystate-cli-'));
    const file = join(dir, 'config.json');
    // Saved with a byte order mark, as some editors do (JSON.parse alone refuses it).
    await writeFile(
      file,
      `\uFEFF${JSON.stringify({
        partners: [{ id: 'partner_x', profiles: [{ id: 'profile_x', name: 'X' }] }],
        clients: [
          {
            token: 'my-secret-token-Gh3Jk5Lm7N',
            partner_id: 'partner_x',
            profile_ids: ['profile_x'],
            pci_dss_compliant: false,
          },
        ],
      })}`,
    );
    const out = cli(['demo', '--port', '0', '--config', file]);
    child = out.child;
    await out.waitFor('Press Ctrl+C to stop.');
    expect(out.stdout()).toContain('1 partner(s), 1 profile(s), 1 client(s)');
    expect(out.stdout()).not.toContain('my-secret-token-Gh3Jk5Lm7N');
    const url = /listening on (\S+)/.exec(out.stdout())?.[1];
    const answer = await fetch(`${url}/v1/profiles/profile_x/payments`, {
      headers: { authorization: 'Bearer my-secret-token-Gh3Jk5Lm7N' },
    });
    expect(answer.status).toBe(200);
    child.kill('SIGINT');
    expect(await out.exited).toBe(0);
  });

  // Found by a security review: a config client with the token "a" worked.
  it('refuses a --config whose token is too weak, naming the client and not the token', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'paystate-cli-'));
    const file = join(dir, 'config.json');
    await writeFile(
      file,
      JSON.stringify({
        partners: [{ id: 'partner_x', profiles: [{ id: 'profile_x', name: 'X' }] }],
        clients: [
          { token: 'my-secret-token-Gh3Jk5Lm7N', partner_id: 'partner_x', profile_ids: [], pci_dss_compliant: false },
          { token: 'weak-token-12', partner_id: 'partner_x', profile_ids: [], pci_dss_compliant: false },
        ],
      }),
    );
    const out = cli(['demo', '--port', '0', '--config', file]);
    child = out.child;
    expect(await out.exited).toBe(2);
    expect(out.stderr()).toContain('clients[1].token: is too weak: a token must be at least 128 bits strong');
    expect(out.stdout() + out.stderr()).not.toContain('weak-token-12');
    expect(out.stdout()).not.toContain('listening');
  });

  // Found by a reviewing helper: `paystate demo | head -1`, or a `tee` stopped by Ctrl+C, closed
  // stdout, and the shutdown's log line crashed the process with an unhandled EPIPE before it
  // closed the server.
  it('shuts down cleanly when its stdout pipe has been closed', async () => {
    const out = cli(['demo', '--port', '0']);
    child = out.child;
    await out.waitFor('Press Ctrl+C to stop.');
    child.stdout?.destroy();
    child.kill('SIGTERM');
    expect(await out.exited).toBe(0);
    expect(out.stderr()).not.toMatch(/EPIPE|Unhandled/);
  });

  // Found by a reviewer: an empty --database-url counted as given, and pg fell back to the PG*
  // environment variables (or localhost:5432): demo migrated that database and its config import
  // deleted every profile and client the sandbox config does not list.
  it('refuses an empty or blank --database-url with one line and exit code 2, connecting to nothing', async () => {
    // Where pg would fall back to: a listener that counts connections and drops them.
    const sockets: Socket[] = [];
    const fallback = createServer((socket) => {
      sockets.push(socket);
      socket.destroy();
    });
    await new Promise<void>((resolve) => fallback.listen(0, '127.0.0.1', resolve));
    const address = fallback.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    const env = { ...process.env, PGHOST: '127.0.0.1', PGPORT: String(port), PGUSER: 'x', PGDATABASE: 'x' };
    try {
      const runs = [
        ['demo', '--port', '0', '--database-url', ''],
        ['demo', '--port', '0', '--database-url=   '],
        ['migrate', '--database-url', ' '],
      ].map(async (args) => {
        const out = cli(args, env);
        return { args, code: await out.exited, stderr: out.stderr(), stdout: out.stdout() };
      });
      for (const { args, code, stderr, stdout } of await Promise.all(runs)) {
        expect({ args, code, stderr }).toEqual({
          args,
          code: 2,
          stderr: expect.stringMatching(/^(paystate: )?No database: /),
        });
        if (args[0] === 'demo') expect(stderr.trimEnd().split('\n'), args.join(' ')).toHaveLength(1);
        expect(stdout).not.toContain('listening');
      }
      expect(sockets).toHaveLength(0);
    } finally {
      await new Promise((resolve) => fallback.close(resolve));
    }
  });

  // Found by a reviewing helper: a URL given without its option (`paystate migrate postgres://…`,
  // as psql takes it) was repeated on stderr, password and all; `--host ''` listened on every
  // interface and printed URLs with no host; an option given twice took its last value silently
  // (two --database-url: the sandbox migrated, and replaced the credentials of, the second).
  it('refuses a stray argument without repeating it, an empty --host and an option given twice, with exit code 2', async () => {
    const url = 'postgres://nobody:hunter2@127.0.0.1:1/x';
    const runs = [
      ['migrate', url],
      ['migrate', `--database-url:${url}`],
      ['demo', '--port', '0', url],
      ['demo', '--port', '0', '--webhook-url', 'http://127.0.0.1:9/', '--webhook-secret=', 'hunter2'.repeat(6)],
      ['demo', '--port', '0', '--host', ''],
      ['demo', '--port', '0', '--port', '0'],
      ['migrate', '--database-url', url, '--database-url', url],
      ['tokens', 'list', '--client', 'client_x', '--database-url', url, '--database-url', url],
    ].map(async (args) => {
      const out = cli(args);
      const spawned = out.child;
      // A run that starts a server instead is stopped: the test then fails on its exit code. Eight
      // processes compiling at once on a busy 2-core machine took 18 s: the limit leaves room.
      const timer = setTimeout(() => spawned.kill('SIGKILL'), 45_000);
      const code = await out.exited;
      clearTimeout(timer);
      return { args, code, stderr: out.stderr(), stdout: out.stdout() };
    });
    for (const { args, code, stderr, stdout } of await Promise.all(runs)) {
      expect({ args, code }).toEqual({ args, code: 2 });
      expect(stderr, args.join(' ')).not.toContain('hunter2');
      expect(stdout, args.join(' ')).toBe('');
    }
  });

  it('documents its exit status in --help, and what --database-url replaces', async () => {
    const runs = await Promise.all(
      [['--help'], ['demo', '--help'], ['migrate', '--help'], ['tokens', '--help']].map(async (args) => {
        const out = cli(args);
        return { args, code: await out.exited, stdout: out.stdout() };
      }),
    );
    for (const { args, code, stdout } of runs) {
      expect({ args, code }).toEqual({ args, code: 0 });
      expect(stdout, args.join(' ')).toMatch(/Exit status: 0 [^\n]*, 1 [^\n]*\n?[^\n]*2 a usage error/);
    }
    expect(runs[1]?.stdout).toMatch(/replaces every profile, client and token stored there/);
  });

  it('warns that challenge cards fail on a --host that is not loopback (plain http challenge pages)', async () => {
    // 192.0.2.1 (TEST-NET-1) is no address of this machine: the warning comes first, then the bind fails.
    const out = cli(['demo', '--port', '0', '--host', '192.0.2.1']);
    expect(await out.exited).toBe(1);
    expect(out.stderr()).toContain('paystate: warning: --host 192.0.2.1 is not a loopback address');
    expect(out.stderr()).toContain('challenge cards would fail (processing_error)');
  });

  it('says a port in use in one line, with exit code 1 and no stack trace', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const address = taken.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    try {
      const out = cli(['demo', '--port', String(port)]);
      expect(await out.exited).toBe(1);
      expect(out.stderr()).toBe(`paystate: port ${port} is already in use (try --port 0)\n`);
      expect(out.stdout()).toBe('');
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('stops at once, with exit code 1, on a second Ctrl+C while a request keeps the shutdown waiting', async () => {
    const out = cli(['demo', '--port', '0']);
    child = out.child;
    await out.waitFor('Press Ctrl+C to stop.');
    const port = Number(/listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out.stdout())?.[1]);
    // A request whose body never comes: the shutdown waits for it (up to 5 s).
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.write(
      'POST /v1/profiles/profile_webshop/payments HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        'Authorization: Bearer sandbox_hosted_only_token\r\nExpect: 100-continue\r\nContent-Length: 100\r\n\r\n',
    );
    await new Promise((resolve) => socket.once('data', resolve));
    child.kill('SIGINT');
    await out.waitFor('shutting down');
    child.kill('SIGINT');
    expect(await out.exited).toBe(1);
    expect(out.stderr()).toBe('paystate: forced exit\n');
    expect(out.stdout()).not.toContain('stopped');
    socket.destroy();
  });

  it('refuses bad arguments and configs with a message and exit code 2', async () => {
    const runs = [
      ['demo', '--port', 'abc'],
      ['demo', '--bogus'],
      ['demo', '--config', '/nonexistent.json'],
      ['demo', '--webhook-url', 'http://127.0.0.1:9/', '--webhook-secret', 'short'],
      ['frobnicate'],
    ].map(async (args) => {
      const out = cli(args);
      return { code: await out.exited, stderr: out.stderr() };
    });
    for (const { code, stderr } of await Promise.all(runs)) {
      expect(code).toBe(2);
      expect(stderr).toMatch(/^paystate: /);
      // Found by a reviewing helper: a short --webhook-secret was told to call a function.
      expect(stderr).not.toContain('generateWebhookSecret()');
    }
  });
});
