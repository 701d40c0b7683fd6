#!/usr/bin/env node
/**
 * The paystate command line:
 * - `paystate demo [--port 3000] [--host 127.0.0.1] [--config file] [--database-url[-file] url|file]
 *   [--secrets-file file] [--webhook-url url [--webhook-secret[-file] secret|file]]` starts the sandbox server (decisions.md
 *   section 7);
 * - `paystate secrets` prints new secrets for `--secrets-file`;
 * - `paystate migrate [--database-url[-file] url|file]` brings a Postgres schema up to date;
 * - `paystate tokens list|add|roll|revoke --client id […]` manages a client's API tokens in Postgres.
 */
import { readFile } from 'node:fs/promises';
import { parseSandboxSecrets, type SandboxConfig, type SandboxSecretsConfig } from '../adapters/memory/index.js';
import {
  checkDatabaseUrl,
  closestName,
  parseCommandLine,
  readSecretFile,
  usageLine,
} from '../adapters/shared/index.js';
import { withoutUrlCredentials } from '../src/domain/mask-digits.js';
import { redirectUrlProblem } from '../src/domain/redirect-url.js';
import { createConsoleLogger } from '../adapters/node/index.js';
import {
  BUNDLED_SANDBOX_CONFIG,
  generateSandboxSecrets,
  processSandboxSecrets,
  readSandboxConfigFile,
  sharedSandboxSecrets,
  startSandboxServer,
  type SandboxServer,
  type SandboxStorage,
} from '../adapters/sandbox-server/index.js';
import { openPostgresStorage, type PostgresModule } from './postgres-storage.js';
import {
  createWebhookEventSink,
  generateStandardWebhookSecret,
  generateWebhookSecret,
  type WebhookSignatureScheme,
} from '../adapters/webhooks/index.js';
import packageJson from '../package.json' with { type: 'json' };
import { curl, exampleBody, operationCommands } from './demo-commands.js';

const USAGE = `Usage: paystate demo [options]
       paystate secrets   (prints new secrets for --secrets-file, as JSON)
       paystate migrate [--database-url <url> | --database-url-file <file>]   (paystate migrate --help)
       paystate tokens list|add|roll|revoke --client <id> [options]   (paystate tokens --help)
       paystate --version   (prints the version of paystate)

Starts the paystate sandbox: the v1 HTTP API, the hosted payment page and a simulated
issuer, in memory, with the simulated acquirer and 3-D Secure.

Options:
  --port <n>       port to listen on (default 3000; 0 picks a free one)
  --host <host>    interface to listen on (default 127.0.0.1; 0.0.0.0 for all of them: challenge
                   pages are plain http, which the engine accepts on localhost and loopback only)
  --public-url <origin>
                   where browsers reach this instance, for the hosted page and challenge links
                   (default http://<host>:<port>): several instances behind one load balancer
  --config <file>  partners, profiles and clients as JSON (default: the bundled sandbox config)
  --database-url <url>
                   keep payments, idempotency keys and credentials in Postgres instead of
                   memory (the schema is migrated first), at a postgres:// or postgresql:// URL
                   (postgres://user:password@host:5432/database); DATABASE_URL is not read implicitly.
                   The config then replaces every profile, client and token stored there,
                   those of paystate tokens included: give the sandbox a database of its own
  --database-url-file <file>
                   the same, read from a file that holds the URL alone (a secret file,
                   /dev/stdin, <(printenv DATABASE_URL)): out of sight of ps
  --secrets-file <file>
                   the secrets every instance on one database shares (the hosted page's CSRF
                   key, the issuer's signing key, the page links' key, the card vault's
                   keys), as JSON: the
                   "secrets" of a config. With a database they are required, here or in the
                   config; make a file with: paystate secrets > sandbox-secrets.json
  --webhook-url <url>
                   also POST every event, signed, to this URL (http or https; docs/webhooks.md)
  --webhook-scheme paystate|standard-webhooks
                   how they are signed: Paystate-Signature (default) or the Standard Webhooks
                   headers (webhook-id, webhook-timestamp, webhook-signature)
  --webhook-secret <secret>
                   the secret that signs them (default: a new one, printed once at start-up):
                   at least 32 characters for paystate, whsec_<base64> for standard-webhooks
  --webhook-secret-file <file>
                   the same, read from a file that holds the secret alone: out of sight of ps
  --log-format text|json
                   text lines (default) or one JSON object per line
  -h, --help       show this help

With a database, the port is taken before the database is touched (a port in use changes
nothing there); a wait for another instance's migration lock is said on stderr.
Ctrl+C or SIGTERM stops it once the requests in flight are answered (at most 5 s); a second
one stops it at once (exit status 1). Exit status: 0 stopped or done, 1 failed (a port in use,
a database that cannot be reached), 2 a usage error (a bad option, config or database URL).
`;

function fail(message: string, code = 2): never {
  process.stderr.write(`paystate: ${message}\n`);
  process.exit(code);
}

function parsePort(text: string | undefined): number {
  if (text === undefined) return 3000;
  const port = /^\d{1,5}$/.test(text) ? Number(text) : NaN;
  if (!(port >= 0 && port <= 65535)) fail(`--port must be a number from 0 to 65535, got ${text}`);
  return port;
}

/**
 * The sandbox's `webhook` option for `--webhook-url` and `--webhook-secret` (a new secret when none
 * is given), checked now so that a bad one fails like any bad argument, and the lines that say so
 * at start-up: the only place a generated secret is ever shown. http URLs, and addresses on
 * localhost or a private network, are taken (`allowInsecureHttp`, `allowPrivateNetworks`): the
 * sandbox runs beside local receivers, and the URL is the developer's own, not a merchant's.
 */
function webhookOption(
  url: string | undefined,
  given: { readonly secret: string; readonly option: string } | undefined,
  scheme: WebhookSignatureScheme,
) {
  if (url === undefined) return undefined;
  const secret = given?.secret;
  const secrets =
    secret ?? (scheme === 'standard-webhooks' ? generateStandardWebhookSecret() : generateWebhookSecret());
  const webhook = { url, secrets, scheme, allowInsecureHttp: true, allowPrivateNetworks: true };
  try {
    createWebhookEventSink(webhook);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    fail(
      message
        .replace(/^webhook url/, '--webhook-url')
        .replace(/^webhook secrets:/, `${given?.option ?? '--webhook-secret'}:`)
        .replace('generateWebhookSecret() makes one', 'leave --webhook-secret out for a new one')
        .replace('generateStandardWebhookSecret() makes one', 'leave --webhook-secret out for a new one'),
    );
  }
  const signedWith =
    secret === undefined
      ? `a secret generated for this run (shown only now; pass --webhook-secret to keep one):\n  ${secrets}`
      : `the ${given?.option ?? '--webhook-secret'} given`;
  return {
    option: { webhook },
    banner: `Webhooks: every event is also POSTed to ${url}, signed (${scheme === 'standard-webhooks' ? 'webhook-signature' : 'Paystate-Signature'}) with ${signedWith}\n\n`,
  };
}

function printBanner(server: SandboxServer<SandboxStorage>, config: SandboxConfig, bundled: boolean): void {
  const lines = [`paystate sandbox listening on ${server.url}`, ''];
  if (!bundled) {
    const profiles = config.partners.reduce((n, partner) => n + partner.profiles.length, 0);
    lines.push(
      `Config: ${config.partners.length} partner(s), ${profiles} profile(s), ${config.clients.length} client(s).`,
    );
  } else {
    lines.push('Sandbox clients (bundled config; these tokens are public and work only here):');
    for (const client of config.clients) {
      const flows = client.pci_dss_compliant ? 'direct + hosted (PCI DSS compliant)' : 'hosted only';
      lines.push(
        `  ${client.token.padEnd(30)} ${client.partner_id}  ${client.profile_ids.join(', ').padEnd(32)} ${flows}`,
      );
    }
    const compliant = config.clients.find((client) => client.pci_dss_compliant);
    const hosted = config.clients.find((client) => !client.pci_dss_compliant);
    const profile = config.partners[0]?.profiles[0]?.id;
    if (profile !== undefined && hosted !== undefined) {
      const url = `${server.url}/v1/profiles/${profile}/payments`;
      // A new key each time a command is pasted (the shell runs `date`): pasting it again makes a
      // new payment, as a newcomer expects; the same key sent twice replays the first answer.
      lines.push(
        '',
        `Create a hosted payment (open next.redirect in a browser; it returns to ${server.baseUrl()}/sandbox/return,`,
        "the sandbox's stand-in for your shop, which shows how the payment ended):",
      );
      lines.push(curl(url, hosted.token, exampleBody(false, server.baseUrl()), 'demo-hosted-$(date +%s%N)'));
      if (compliant !== undefined) {
        lines.push('', 'Create a direct payment with test card 4242 4242 4242 4242:');
        lines.push(curl(url, compliant.token, exampleBody(true, server.baseUrl()), 'demo-direct-$(date +%s%N)'));
      }
      lines.push(
        '',
        'Read a payment back (put the "id" of an answer above in place of PAYMENT_ID; its',
        '_links.self.href, under /v1/partners/…, answers the same):',
        `curl -sS ${url}/PAYMENT_ID -H 'Authorization: Bearer ${hosted.token}'`,
        '',
        `List: curl -sS '${url}?limit=5' -H 'Authorization: Bearer ${hosted.token}'`,
      );
      if (compliant !== undefined)
        lines.push('', ...operationCommands(url, compliant.token, hosted.token, server.baseUrl()));
    }
  }
  lines.push('', `API reference: ${server.url}/docs (OpenAPI document: ${server.url}/openapi.json)`);
  lines.push('', 'Press Ctrl+C to stop.', '');
  process.stdout.write(`${lines.join('\n')}\n`);
}

/**
 * The value of the option `--name` or, given instead, of `--name-file` (`file`, read with
 * `readSecretFile`: a secret kept out of the argument list, which `ps` shows), with the option it
 * came from; undefined when neither is given. Both given, or an unreadable file, is a usage error.
 */
async function secretOption(
  value: string | undefined,
  name: string,
  file: string | undefined,
): Promise<{ readonly value: string; readonly option: string } | undefined> {
  if (file === undefined) return value === undefined ? undefined : { value, option: `--${name}` };
  if (value !== undefined) fail(`give --${name} or --${name}-file, not both`);
  const read = await readSecretFile(`--${name}-file`, file);
  if (read.isErr()) fail(read.error);
  return { value: read.value, option: `--${name}-file` };
}

/**
 * The database of `--database-url`, or of the file `--database-url-file` names (undefined for
 * neither), with where it points and the option it came from. An empty value, or one that is not a
 * Postgres URL, is a usage error: `pg` would take an empty one for the PG* environment variables or
 * localhost:5432 (and the config import would then delete that database's other clients), and a
 * host name alone for a database name on localhost.
 */
async function databaseOption(
  url: string | undefined,
  file: string | undefined,
): Promise<{ readonly url: string; readonly target: string; readonly option: string } | undefined> {
  const given = await secretOption(url, 'database-url', file);
  if (given === undefined) return undefined;
  const named = file === undefined ? given.option : `${given.option} ${file}`;
  if (given.value.trim() === '') {
    fail(`No database: ${named} is empty (give a Postgres URL, or leave the option out to keep everything in memory)`);
  }
  const checked = checkDatabaseUrl(given.value, named);
  if (checked.isErr()) return fail(usageLine('paystate demo', checked.error));
  return { ...checked.value, option: given.option };
}

/**
 * The `secrets` object of a `--secrets-file` (JSON), or a usage error that names the file and the
 * fields at fault, never what the file holds.
 */
async function readSecretsFile(path: string): Promise<SandboxSecretsConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    return fail(
      `cannot read --secrets-file ${withoutUrlCredentials(path)} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return fail(`--secrets-file ${path} is not valid JSON`);
  }
  const parsed = parseSandboxSecrets(json);
  return parsed.isOk() ? parsed.value : fail(`--secrets-file ${path}: ${parsed.error.message}`);
}

/**
 * Loads the Postgres adapters, only when needed: `pg` is an optional peer dependency. Rejects with
 * a message for `who` (`paystate migrate`, `--database-url`): that it needs `pg` when `pg` itself
 * is missing; else the error that stopped it loading (a dependency of `pg` missing, a broken
 * install), as it is, but without the credentials of a URL.
 */
async function loadPostgres(who: string): Promise<PostgresModule> {
  try {
    return await import('../adapters/postgres/index.js');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const message = error instanceof Error ? error.message : String(error);
    const pgMissing =
      (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
      /^Cannot find (?:package|module) 'pg'(?=\s|$)/.test(message);
    throw new Error(
      pgMissing
        ? `${who} needs the \`pg\` package: npm install pg`
        : `${who}: could not load the Postgres adapters: ${withoutUrlCredentials(message)}`,
      // The message says all the command line shows; the cause keeps the error for a debugger.
      { cause: error },
    );
  }
}

/** How long a wait for another instance's migration lock goes unsaid (most are over in a moment). */
const LOCK_WAIT_NOTICE_MS = 1000;

/**
 * Migrates the database, and says so on stderr once it has waited `LOCK_WAIT_NOTICE_MS` for the
 * lock of another instance migrating the same database (it waits up to 10 minutes).
 */
async function migrateSayingWhenWaiting(
  migrate: PostgresModule['migrate'],
  pool: Parameters<PostgresModule['migrate']>[0],
): Promise<Awaited<ReturnType<PostgresModule['migrate']>>> {
  let notice: ReturnType<typeof setTimeout> | undefined;
  try {
    return await migrate(pool, {
      onWaiting: () => {
        notice = setTimeout(() => {
          process.stderr.write(
            "paystate: waiting for another instance's migration lock on this database (it gives up after 10 minutes)…\n",
          );
        }, LOCK_WAIT_NOTICE_MS);
      },
    });
  } finally {
    clearTimeout(notice);
  }
}

async function demo(args: readonly string[]): Promise<void> {
  const parsed = parseCommandLine(
    args,
    {
      port: { type: 'string' },
      host: { type: 'string' },
      'public-url': { type: 'string' },
      config: { type: 'string' },
      'database-url': { type: 'string' },
      'database-url-file': { type: 'string' },
      'secrets-file': { type: 'string' },
      'webhook-url': { type: 'string' },
      'webhook-secret': { type: 'string' },
      'webhook-secret-file': { type: 'string' },
      'webhook-scheme': { type: 'string' },
      'log-format': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    false,
  );
  if (parsed.isErr()) fail(usageLine('paystate demo', parsed.error));
  const { values } = parsed.value;
  if (values.help === true) {
    process.stdout.write(USAGE);
    return;
  }
  const port = parsePort(values.port);
  // An empty host is every interface to node:http, and the URLs printed would name no host.
  const host = values.host ?? '127.0.0.1';
  if (host.trim() === '') fail('--host is empty (give an interface, such as 127.0.0.1, or 0.0.0.0 for all of them)');
  // The issuer's challenge page is served over http, and the engine takes an http challenge URL only
  // on localhost or a loopback address (as a redirect_url); a wildcard host is printed as localhost.
  if (
    host !== '0.0.0.0' &&
    host !== '::' &&
    redirectUrlProblem(`http://${host.includes(':') ? `[${host}]` : host}/`) !== null
  ) {
    process.stderr.write(
      `paystate: warning: --host ${host} is not a loopback address, and the challenge page is served over http,\n` +
        '  which the engine accepts only on localhost or loopback: challenge cards would fail (processing_error).\n' +
        '  Use 127.0.0.1, or 0.0.0.0 to listen on every interface (URLs then name localhost).\n',
    );
  }
  const databaseUrl = await databaseOption(values['database-url'], values['database-url-file']);
  if (values['webhook-url'] === undefined) {
    if (values['webhook-secret'] !== undefined) fail('--webhook-secret needs --webhook-url');
    if (values['webhook-secret-file'] !== undefined) fail('--webhook-secret-file needs --webhook-url');
  }
  const secret = await secretOption(values['webhook-secret'], 'webhook-secret', values['webhook-secret-file']);
  if (secret?.value === '' && secret.option === '--webhook-secret-file') {
    fail(`--webhook-secret-file ${values['webhook-secret-file']} is empty (leave it out for a new secret)`);
  }
  const scheme = values['webhook-scheme'] ?? 'paystate';
  if (scheme !== 'paystate' && scheme !== 'standard-webhooks') {
    fail(`--webhook-scheme needs paystate or standard-webhooks, got ${scheme}`);
  }
  if (values['webhook-url'] === undefined && values['webhook-scheme'] !== undefined) {
    fail('--webhook-scheme needs --webhook-url');
  }
  const logFormat = values['log-format'] ?? 'text';
  if (logFormat !== 'text' && logFormat !== 'json') fail(`--log-format needs text or json, got ${logFormat}`);
  const webhook = webhookOption(
    values['webhook-url'],
    secret === undefined ? undefined : { secret: secret.value, option: secret.option },
    scheme,
  );
  let config = BUNDLED_SANDBOX_CONFIG;
  if (values.config !== undefined) {
    const read = await readSandboxConfigFile(values.config);
    if (read.isErr()) fail(read.error.message);
    config = read.value;
  }
  const secretsConfig =
    values['secrets-file'] === undefined ? config.secrets : await readSecretsFile(values['secrets-file']);
  const shared = databaseUrl === undefined ? undefined : sharedSandboxSecrets(secretsConfig);
  if (shared?.isErr() === true) {
    fail(
      `${databaseUrl?.option ?? '--database-url'}: every instance on a database must share the sandbox's secrets, ` +
        `and ${shared.error.join(', ')} ${shared.error.length === 1 ? 'is' : 'are'} missing.\n` +
        `  Give them in a file (--secrets-file <file>) or as "secrets" in --config; make a file with:\n` +
        `  npx paystate secrets > sandbox-secrets.json`,
    );
  }
  const sharedSecrets = shared?.isOk() === true ? shared.value : undefined;
  const publicUrl = values['public-url'];
  if (publicUrl !== undefined && !/^https?:\/\/[^/?#@]+\/?$/.test(publicUrl)) {
    fail(`--public-url must be an http(s) origin alone, such as https://pay.example or http://127.0.0.1:8080`);
  }
  const secrets = sharedSecrets ?? processSandboxSecrets(secretsConfig);

  const logger = createConsoleLogger({ level: 'info', format: logFormat });
  let closeStorage = async (): Promise<void> => undefined;
  let server: SandboxServer<SandboxStorage>;
  try {
    const serverOptions = {
      port,
      host,
      config,
      secrets,
      logger,
      ...(publicUrl !== undefined && { publicUrl }),
      ...webhook?.option,
    };
    if (databaseUrl === undefined || sharedSecrets === undefined) {
      server = await startSandboxServer(serverOptions);
    } else {
      const postgres = await loadPostgres('--database-url');
      server = await startSandboxServer({
        ...serverOptions,
        // Made once the server listens: a port in use fails before the database is touched.
        storage: () =>
          openPostgresStorage({
            postgres,
            connectionString: databaseUrl.url,
            target: databaseUrl.target,
            config,
            bundledConfig: values.config === undefined,
            secrets: sharedSecrets,
            logger,
            migrate: (pool) => migrateSayingWhenWaiting(postgres.migrate, pool),
            onClose: (close) => (closeStorage = close),
          }),
      });
    }
  } catch (error) {
    await closeStorage();
    const code = (error as { code?: string }).code;
    fail(
      code === 'EADDRINUSE'
        ? `port ${port} is already in use (try --port 0)`
        : withoutUrlCredentials(error instanceof Error ? error.message : String(error)),
      1,
    );
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      process.stderr.write('paystate: forced exit\n');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'shutting down');
    server
      .close()
      .then(closeStorage)
      .then(
        () => {
          logger.info({}, 'stopped');
          process.exit(0);
        },
        () => process.exit(1),
      );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  // `npm run demo` starts this under a shell, and a supervisor's SIGTERM to npm (`docker stop`,
  // `kill $!` in a script) reaches only that shell, which dies without passing it on: once the
  // shell npm started is gone, stop as on SIGTERM rather than run on as an orphan.
  if (process.env['npm_lifecycle_event'] === 'demo') {
    const shell = process.ppid;
    const watch = setInterval(() => {
      if (process.ppid === shell) return;
      clearInterval(watch);
      stop('parent exited');
    }, 250);
    watch.unref();
  }
  // Only now, with the signal handlers in place: a SIGTERM sent as soon as the banner is read
  // must stop the server gracefully, not kill the process with the default action.
  printBanner(server, config, values.config === undefined);
  if (webhook !== undefined) process.stdout.write(webhook.banner);
  if (databaseUrl !== undefined) process.stdout.write('Storage: Postgres (payments survive a restart).\n\n');
}

// A closed pipe (`paystate demo | head -1`, a `tee` stopped by Ctrl+C) must not crash the
// shutdown with an unhandled EPIPE: output that cannot be written is dropped.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
}

/** The commands `paystate` takes. */
const COMMANDS = ['demo', 'secrets', 'migrate', 'tokens'] as const;

const [command, ...rest] = process.argv.slice(2);
if (command === 'demo') {
  void demo(rest);
} else if (command === 'secrets') {
  if (rest.length > 0) fail(usageLine('paystate', 'secrets takes no arguments'));
  process.stdout.write(`${JSON.stringify(generateSandboxSecrets(new Date()), null, 2)}\n`);
} else if (command === 'migrate') {
  void loadPostgres('paystate migrate').then(
    async ({ runMigrateCli }) => {
      process.exitCode = await runMigrateCli(rest);
    },
    (error: Error) => fail(error.message, 1),
  );
} else if (command === 'tokens') {
  void loadPostgres('paystate tokens').then(
    async ({ runTokensCli }) => {
      process.exitCode = await runTokensCli(rest);
    },
    (error: Error) => fail(error.message, 1),
  );
} else if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
  process.stdout.write(USAGE);
} else if (command === '--version' || command === '-v') {
  process.stdout.write(`${packageJson.version}\n`);
} else {
  // Never repeated when it looks like a value that lost its option (a URL, maybe with a password).
  const named = /^[\w-]{1,40}$/.test(command) ? command : '(not shown)';
  const guess = closestName(command, [...COMMANDS]);
  fail(usageLine('paystate', `unknown command ${named}${guess === undefined ? '' : `: did you mean ${guess}?`}`));
}
