import { readFile } from 'node:fs/promises';
import { err, ok, type Result } from 'neverthrow';
import { deepFreeze } from '../../src/domain/immutable.js';
import { parseSandboxConfig, type SandboxConfig, type SandboxConfigError } from '../memory/index.js';
import bundled from './sandbox-config.json' with { type: 'json' };

/**
 * The sandbox config bundled with paystate (`sandbox-config.json`): one partner, two profiles and
 * three clients — PCI DSS compliant (direct and hosted flow, both profiles), hosted only (both
 * profiles), and hosted only on the second profile. Its tokens are public: sandbox use only.
 */
export const BUNDLED_SANDBOX_CONFIG: SandboxConfig = deepFreeze(parseSandboxConfig(bundled)._unsafeUnwrap());

/** Why `readSandboxConfigFile` failed: the file could not be read, is not JSON, or is not a valid config. */
export type SandboxConfigFileError =
  | SandboxConfigError
  | { readonly code: 'unreadable'; readonly message: string }
  | { readonly code: 'invalid_json'; readonly message: string };

/** Reads and validates a sandbox config file (docs/http-api.md, The sandbox). */
export async function readSandboxConfigFile(path: string): Promise<Result<SandboxConfig, SandboxConfigFileError>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return err({ code: 'unreadable', message: `Cannot read the sandbox config ${path}: ${reason}` });
  }
  let json: unknown;
  try {
    // Editors on Windows may save UTF-8 with a byte order mark, which JSON.parse refuses.
    json = JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text);
  } catch {
    return err({ code: 'invalid_json', message: `The sandbox config ${path} is not valid JSON` });
  }
  const parsed = parseSandboxConfig(json);
  return parsed.isOk() ? ok(parsed.value) : err(parsed.error);
}
