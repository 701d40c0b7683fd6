import { parseArgs } from 'node:util';
import { err, ok, type Result } from 'neverthrow';
import { withoutUrlCredentials } from '../../src/domain/mask-digits.js';

/** One option of a command: a flag (`boolean`) or one that takes a value (`string`). */
export interface CommandLineOption {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
}

/** The options given, by long name: the value of each `string` option, true for each flag. */
export type CommandLineValues<O extends Readonly<Record<string, CommandLineOption>>> = {
  readonly [K in keyof O]?: O[K]['type'] extends 'boolean' ? boolean : string;
};

/** A command line read by `parseCommandLine`. */
export interface CommandLine<O extends Readonly<Record<string, CommandLineOption>>> {
  readonly values: CommandLineValues<O>;
  readonly positionals: readonly string[];
}

/**
 * Reads the arguments of a paystate command (`node:util` `parseArgs`, strict), and refuses, with
 * the message of a usage error (never the password of a URL), besides what `parseArgs` refuses:
 * - an option that takes a value given twice: `parseArgs` keeps the last one silently, and an
 *   operator who wrote `--token-id a --token-id b` or two `--database-url`s meant something else;
 * - an argument that is not an option, when `allowPositionals` is false, without repeating it: it
 *   is often a value that lost its option (`paystate migrate postgres://user:password@host/db`),
 *   and it may be a secret.
 */
export function parseCommandLine<const O extends Readonly<Record<string, CommandLineOption>>>(
  argv: readonly string[],
  options: O,
  allowPositionals: boolean,
): Result<CommandLine<O>, string> {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...argv], options, strict: true, allowPositionals: true, tokens: true });
  } catch (error) {
    // An unknown option is named as written: `--database-url:postgres://user:password@…` too.
    return err(withoutUrlCredentials(error instanceof Error ? error.message : String(error)));
  }
  const seen = new Set<string>();
  for (const token of parsed.tokens ?? []) {
    if (token.kind !== 'option' || options[token.name]?.type !== 'string') continue;
    if (seen.has(token.name)) return err(`--${token.name} is given twice: give it once.`);
    seen.add(token.name);
  }
  if (!allowPositionals && parsed.positionals.length > 0) {
    return err(
      'Unexpected argument (not shown, as it may be a secret): this command takes options only, ' +
        'each value right after its option (--database-url <url>, or --database-url=<url>).',
    );
  }
  return ok({ values: parsed.values as CommandLineValues<O>, positionals: parsed.positionals });
}
