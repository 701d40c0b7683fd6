import { randomBytes } from 'node:crypto';
import { DEFAULT_TOKEN_OVERLAP_MS, type ClientToken } from '../../src/ports/credential-provisioning.js';
import { atDatabase, parseCommandLine, type CommandLineValues } from '../shared/index.js';
import { createPostgresCredentialStore, type PostgresCredentialStore } from './credential-store.js';
import { DATABASE_OPTIONS, PROCESS_IO, usageError, withDatabase, type MigrateCliIo } from './subcommand-io.js';

const COMMAND = 'paystate tokens';

const USAGE = `Usage: paystate tokens list   --client <id>
       paystate tokens add    --client <id> [--expires-in <duration>]
       paystate tokens roll   --client <id> [--token-id <id>] [--overlap <duration>]
       paystate tokens revoke --client <id> --token-id <id>
Options: [--database-url <url> | --database-url-file <file>] (default: the DATABASE_URL environment
         variable; a postgres:// or postgresql:// URL; the file holds it alone, out of sight of ps)

Manages the API tokens of a client stored in Postgres (the schema must be migrated). A token is
named by its id, 16 random hex digits the database gave it (list shows them; nothing of the
token); tokens themselves are never shown, except a new one, once: add and roll print it alone
on standard output.
  add      gives the client one more token (--expires-in: it stops working after that long)
  roll     adds a new token and lets the old one (--token-id; may be left out when the client
           has only one token) work for --overlap more (default 24h; 0 revokes it at once)
  revoke   revokes one token at once; the client's last one takes the client with it
Durations: a whole number with ms, s, m, h or d (90s, 15m, 24h, 7d), or 0.
A sandbox started with --database-url replaces its clients' tokens with its config's at start.
Exit status: 0 done, 1 failed or refused (an unknown client or token, a database that cannot be
reached), 2 a usage error (a bad option or URL).`;

const UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A duration such as `24h` in ms, or null when it is not one. */
function parseDuration(text: string): number | null {
  if (text === '0') return 0;
  const match = /^(\d{1,12})(ms|s|m|h|d)$/.exec(text);
  if (match === null) return null;
  const value = Number(match[1]) * (UNITS[match[2] as string] as number);
  return Number.isSafeInteger(value) ? value : null;
}

/** A new API token: 256 random bits, URL-safe (a bearer token as `API_TOKEN_RULE` has it). */
const generateToken = (): string => `pst_${randomBytes(32).toString('base64url')}`;

const when = (time: number | null): string => (time === null ? 'never' : new Date(time).toISOString());

const describeToken = (token: ClientToken): string =>
  `${token.tokenId}  created ${when(token.createdAt)}  expires ${when(token.expiresAt)}`;

/**
 * After an `add` or `roll` that failed: whether its token was stored all the same (its answer lost),
 * then printed. Else reports the failure, with how to find the token by when it was made.
 */
async function storedAfterAll(
  failure: { readonly code: string; readonly message: string; readonly notSent?: boolean },
  store: PostgresCredentialStore,
  request: {
    readonly action: string;
    readonly clientId: string;
    readonly token: string;
    readonly startedAt: number;
    readonly target: string;
  },
  out: MigrateCliIo,
): Promise<boolean> {
  const { action, clientId, token, target } = request;
  const unknown = failure.code === 'unavailable' && failure.notSent !== true;
  const owner = unknown ? await store.authenticate(token) : null;
  if (owner?.isOk() === true && owner.value?.id === clientId) {
    out.stdout(token);
    out.stderr(
      `added ${owner.value.tokenId ?? 'a token'} (its answer was lost, but it is stored); keep the token now: it is not shown again`,
    );
    return true;
  }
  out.stderr(failureLine(action, failure, target));
  if (unknown) {
    out.stderr(
      `the ${action} may have been stored all the same (its answer lost): if \`paystate tokens list --client ${clientId}\` ` +
        `shows a token created from ${when(request.startedAt)} to ${when(Date.now())}, nobody has that token: ` +
        `revoke it (--token-id <its id>) and try again`,
    );
  }
  return false;
}

const OPTIONS = {
  client: { type: 'string' },
  'token-id': { type: 'string' },
  overlap: { type: 'string' },
  'expires-in': { type: 'string' },
  ...DATABASE_OPTIONS,
  help: { type: 'boolean', short: 'h' },
} as const;

type Options = CommandLineValues<typeof OPTIONS>;

/** The options of each subcommand besides --client and --database-url; any other is refused, not ignored. */
const OWN_OPTIONS: ReadonlyMap<string, readonly ('token-id' | 'overlap' | 'expires-in')[]> = new Map([
  ['list', []],
  ['add', ['expires-in']],
  ['roll', ['token-id', 'overlap']],
  ['revoke', ['token-id']],
]);

/** The option given to `action` that it does not take, as a usage message; undefined when there is none. */
function strayOption(action: string | undefined, values: Options): string | undefined {
  const own = action === undefined ? undefined : OWN_OPTIONS.get(action);
  if (own === undefined) return undefined;
  const stray = (['token-id', 'overlap', 'expires-in'] as const).find(
    (name) => values[name] !== undefined && !own.includes(name),
  );
  if (stray === undefined) return undefined;
  const takes = own.length === 0 ? 'only --client' : own.map((name) => `--${name}`).join(' and ');
  return `tokens ${action} takes no --${stray} (it takes ${takes}).`;
}

/** What a subcommand does once the store is open (on the database at `target`): the exit code. */
type Command = (store: PostgresCredentialStore, clientId: string, target: string) => Promise<number>;

/** The line that says `action` failed; one that could not reach the database at `target` names it. */
const failureLine = (
  action: string,
  error: { readonly code: string; readonly message: string },
  target: string,
): string =>
  `tokens ${action} failed (${error.code}): ${error.code === 'unavailable' ? atDatabase(target, error.message) : error.message}`;

/**
 * The `tokens` subcommand: `argv` are the arguments after `tokens`. Resolves to the exit code (0
 * done, 1 failed or refused, 2 usage error); prints a new token only on standard output, never an
 * old one, and never the connection string.
 */
export async function runTokensCli(argv: readonly string[], io: MigrateCliIo = PROCESS_IO): Promise<number> {
  const usage = (message: string): number => usageError(io, COMMAND, message);
  const parsed = parseCommandLine(argv, OPTIONS, true);
  if (parsed.isErr()) return usage(parsed.error);
  const { values, positionals } = parsed.value;
  if (values.help === true) {
    io.stdout(USAGE);
    return 0;
  }
  const [action, ...extra] = positionals;
  if (extra.length > 0) return usage('Give one subcommand, and everything else as options.');
  const stray = strayOption(action, values);
  if (stray !== undefined) return usage(stray);
  if (values['token-id']?.trim() === '') {
    return usage('--token-id is empty: name a token by its id (paystate tokens list).');
  }
  const command = commandFor(action, values, io, usage);
  if (typeof command === 'number') return command;
  const clientId = values.client;
  if (clientId === undefined || clientId === '') return usage('Name the client: --client <id>.');
  return withDatabase(io, COMMAND, values, { max: 1 }, (pool, target) =>
    command(createPostgresCredentialStore({ pool }), clientId, target),
  );
}

/** The subcommand `action` names, or the exit code of a usage error. */
function commandFor(
  action: string | undefined,
  values: Options,
  out: MigrateCliIo,
  usage: (message: string) => number,
): Command | number {
  const failed = (error: { readonly code: string; readonly message: string }, target: string): number => {
    out.stderr(failureLine(action ?? '', error, target));
    return 1;
  };
  const tokenId = values['token-id'];
  switch (action) {
    case 'list':
      return async (store, clientId, target) => {
        const listed = await store.listTokens(clientId);
        if (listed.isErr()) return failed(listed.error, target);
        if (listed.value === null)
          return failed({ code: 'unknown_client', message: 'There is no client with this id' }, target);
        for (const token of listed.value) out.stdout(describeToken(token));
        return 0;
      };
    case 'add': {
      const expiresIn = values['expires-in'] === undefined ? null : parseDuration(values['expires-in']);
      if (values['expires-in'] !== undefined && (expiresIn === null || expiresIn === 0)) {
        return usage('--expires-in must be a duration such as 90s, 15m, 24h or 7d.');
      }
      return async (store, clientId, target) => {
        const token = generateToken();
        const startedAt = Date.now();
        const added = await store.addToken({
          clientId,
          token,
          ...(expiresIn === null ? {} : { expiresAt: Date.now() + expiresIn }),
        });
        if (added.isErr())
          return (await storedAfterAll(added.error, store, { action: 'add', clientId, token, startedAt, target }, out))
            ? 0
            : 1;
        out.stdout(token);
        out.stderr(`added ${describeToken(added.value)}; keep the token now: it is not shown again`);
        return 0;
      };
    }
    case 'roll': {
      const overlapMs = values.overlap === undefined ? DEFAULT_TOKEN_OVERLAP_MS : parseDuration(values.overlap);
      if (overlapMs === null) return usage('--overlap must be 0 or a duration such as 90s, 15m, 24h or 7d.');
      return async (store, clientId, target) => {
        let old = tokenId;
        if (old === undefined) {
          const listed = await store.listTokens(clientId);
          if (listed.isErr()) return failed(listed.error, target);
          if (listed.value === null) {
            return failed({ code: 'unknown_client', message: 'There is no client with this id' }, target);
          }
          if (listed.value.length !== 1) {
            return usage(`The client has ${listed.value.length} tokens: name the one to roll with --token-id.`);
          }
          old = (listed.value[0] as ClientToken).tokenId;
        }
        const token = generateToken();
        const startedAt = Date.now();
        const rolled = await store.rollToken({ old: { clientId, tokenId: old }, token, overlapMs });
        if (rolled.isErr()) {
          if (!(await storedAfterAll(rolled.error, store, { action: 'roll', clientId, token, startedAt, target }, out)))
            return 1;
          // Stored after all: the old token got its expiry (or went) in the same transaction.
          const listed = await store.listTokens(clientId);
          const retired = listed.isOk() ? listed.value?.find((each) => each.tokenId === old) : undefined;
          if (retired !== undefined) out.stderr(`retiring ${old}: works until ${when(retired.expiresAt)}`);
          else out.stderr(listed.isOk() ? `revoked ${old}` : `retiring ${old} (its expiry could not be read)`);
          return 0;
        }
        out.stdout(token);
        out.stderr(`added ${describeToken(rolled.value.added)}; keep the token now: it is not shown again`);
        out.stderr(
          overlapMs === 0
            ? `revoked ${rolled.value.retired.tokenId}`
            : `retiring ${rolled.value.retired.tokenId}: works until ${when(rolled.value.retired.expiresAt)}`,
        );
        return 0;
      };
    }
    case 'revoke':
      if (tokenId === undefined) return usage('Name the token to revoke: --token-id <id> (paystate tokens list).');
      return async (store, clientId, target) => {
        const revoked = await store.revokeToken({ clientId, tokenId });
        if (revoked.isErr()) return failed(revoked.error, target);
        if (!revoked.value) {
          return failed({ code: 'unknown_token', message: 'The client has no such token that still works' }, target);
        }
        out.stdout(`revoked ${tokenId}`);
        return 0;
      };
    default:
      return usage(action === undefined ? 'Name a subcommand.' : 'Unknown subcommand: give list, add, roll or revoke.');
  }
}
