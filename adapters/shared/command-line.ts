import { parseArgs } from 'node:util';
import { err, ok, type Result } from 'neverthrow';
import { withoutUrlCredentials } from '../../src/domain/mask-digits.js';
import { closestName } from './closest-name.js';

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

type Options = Readonly<Record<string, CommandLineOption>>;

/**
 * What is wrong with a command line strict `parseArgs` refused, as one line; undefined when none of
 * an unknown option, an option without its value or a flag given one is found.
 */
function diagnose(argv: readonly string[], options: Options): string | undefined {
  const { tokens } = parseArgs({ args: [...argv], options, strict: false, allowPositionals: true, tokens: true });
  const names = Object.keys(options);
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    const option = options[token.name];
    if (option === undefined) {
      // Named as written, without a value after `=` nor the password of a URL run into it.
      const written = withoutUrlCredentials(token.rawName);
      const guess = token.rawName.startsWith('--')
        ? closestName(token.name, names)
        : // `-p`: the one long option that starts with its letter.
          ((starting) => (starting.length === 1 ? starting[0] : undefined))(
            names.filter((name) => name.startsWith(token.name)),
          );
      return guess === undefined ? `unknown option ${written}` : `unknown option ${written}: did you mean --${guess}?`;
    }
    if (
      option.type === 'string' &&
      (token.value === undefined || (!token.inlineValue && token.value.startsWith('-')))
    ) {
      return token.value === undefined
        ? `--${token.name} needs a value: --${token.name} <value>`
        : `--${token.name} needs a value (one that starts with - goes as --${token.name}=<value>)`;
    }
    if (option.type === 'boolean' && token.value !== undefined) return `--${token.name} takes no value`;
  }
  return undefined;
}

/** A usage error as one line that points to the command's help (`command` as typed: `paystate demo`). */
export function usageLine(command: string, message: string): string {
  return `${message.replace(/\.$/, '')} (${command} --help shows the usage)`;
}

/**
 * Reads a paystate command's arguments (`parseArgs`, strict), refusing in one line that never shows a
 * value: what `parseArgs` refuses ("did you mean" the nearest option), an option with a value given
 * twice, and, unless `allowPositionals`, any other argument (often a value, maybe a secret, that lost its option).
 */
export function parseCommandLine<const O extends Options>(
  argv: readonly string[],
  options: O,
  allowPositionals: boolean,
): Result<CommandLine<O>, string> {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...argv], options, strict: true, allowPositionals: true, tokens: true });
  } catch (error) {
    const said = error instanceof Error ? error.message : String(error);
    return err(diagnose(argv, options) ?? withoutUrlCredentials(said));
  }
  const seen = new Set<string>();
  for (const token of parsed.tokens ?? []) {
    if (token.kind !== 'option' || options[token.name]?.type !== 'string') continue;
    if (seen.has(token.name)) return err(`--${token.name} is given twice: give it once`);
    seen.add(token.name);
  }
  if (!allowPositionals && parsed.positionals.length > 0) {
    return err(
      'unexpected argument (not shown, as it may be a secret): this command takes options only, ' +
        'each value right after its option (--database-url <url>, or --database-url=<url>)',
    );
  }
  return ok({ values: parsed.values as CommandLineValues<O>, positionals: parsed.positionals });
}
