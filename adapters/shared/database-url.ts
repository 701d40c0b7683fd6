import { err, ok, type Result } from 'neverthrow';

// No `pg` here: the command line checks a URL before it loads the Postgres adapters.

/** A Postgres URL that passed `checkDatabaseUrl`, and where it points. */
export interface CheckedDatabaseUrl {
  /** The URL as given, for `pg`. */
  readonly url: string;
  /** `host:port/database` for messages: never the user or the password. */
  readonly target: string;
}

const decoded = (text: string): string => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

/**
 * Checks that `text` is a `postgres://` or `postgresql://` URL and names where it points; a refusal
 * names `source`, never the value. A host left out is taken (`pg` reads `?host=`, `PGHOST` or localhost).
 */
export function checkDatabaseUrl(text: string, source: string): Result<CheckedDatabaseUrl, string> {
  const expected = 'give a postgres:// or postgresql:// URL, such as postgres://user:password@host:5432/database';
  let url: URL;
  try {
    // `localhost:5432` parses as a URL of the scheme `localhost:`: a URL here names its `//` host.
    if (!text.includes('://')) throw new TypeError('no scheme');
    url = new URL(text);
  } catch {
    return err(`${source} is not a URL: ${expected}`);
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    // A scheme is a word of letters, digits, + - and .: no secret in it.
    return err(`${source} is a ${url.protocol} URL, not a Postgres one: ${expected}`);
  }
  const host = decoded(url.hostname) || url.searchParams.get('host') || 'localhost';
  const port = url.port || url.searchParams.get('port') || '5432';
  const database = decoded(url.pathname.replace(/^\//, ''));
  return ok({ url: text, target: `${host}:${port}${database === '' ? '' : `/${database}`}` });
}

/** `message` of a failure to reach the database at `target`, saying which one. */
export function atDatabase(target: string, message: string): string {
  return `database at ${target}: ${message}`;
}
