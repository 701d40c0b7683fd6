import { err, ok, type Result } from 'neverthrow';
import { z } from 'zod';
import {
  API_TOKEN_RULE,
  isApiToken,
  isPartnerId,
  isProfileId,
  PARTNER_ID_RULE,
  PROFILE_ID_RULE,
} from '../../src/domain/tenancy-ids.js';
import { API_TOKEN_STRENGTH_RULE, isStrongApiToken } from '../../src/domain/token-strength.js';
import { PUBLIC_SANDBOX_TOKENS } from './public-sandbox-tokens.js';

/**
 * A partner or profile id: it becomes a path segment of `_links` and `Location`, and the API
 * answers it, so it keeps to the prefixes of the API (`partner_`, `profile_`).
 */
const partnerId = z.string().refine(isPartnerId, `must be ${PARTNER_ID_RULE}`);
const profileId = z.string().refine(isProfileId, `must be ${PROFILE_ID_RULE}`);

/**
 * A token a client can present as `Authorization: Bearer <token>`, too strong to guess (the bundled
 * config's public tokens excepted, `PUBLIC_SANDBOX_TOKENS`); the messages never repeat it.
 */
const token = z
  .string()
  .refine(isApiToken, `must be ${API_TOKEN_RULE}`)
  .refine(
    (text) => !isApiToken(text) || isStrongApiToken(text) || PUBLIC_SANDBOX_TOKENS.has(text),
    `is too weak: a token must be ${API_TOKEN_STRENGTH_RULE}`,
  );

/** A secret the sandbox's instances share: at least 32 characters; messages never repeat it. */
const sharedSecret = z.string().min(32, 'must be at least 32 characters');

/** A card vault key: 32 bytes in base64 (or base64url); messages never repeat it. */
const vaultKey = z
  .string()
  .refine((text) => /^[A-Za-z0-9+/_-]{43}=?$/.test(text) && Buffer.from(text, 'base64').length === 32, {
    message: 'must be 32 bytes in base64 (openssl rand -base64 32)',
  });

/**
 * Secrets every sandbox instance on one database must share: the CSRF key, the issuer's signing key,
 * the page-link key and the card vault's key ring; each optional, `paystate demo --database-url` needs all four.
 */
export const sandboxSecretsSchema = z.strictObject({
  csrf_secret: sharedSecret.optional(),
  challenge_secret: sharedSecret.optional(),
  page_link_secret: sharedSecret.optional(),
  card_vault_keys: z
    .array(
      z.strictObject({
        id: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be 1 to 64 of A-Z a-z 0-9 . _ -'),
        key: vaultKey,
      }),
    )
    .min(1, 'must hold at least one key')
    .refine((keys) => new Set(keys.map((entry) => entry.id)).size === keys.length, 'key ids must be unique')
    .optional(),
});

/** A whole number of milliseconds from `min` to `max`. */
const milliseconds = (min: number, max: number) =>
  z.number().int('must be a whole number of milliseconds').min(min).max(max);

/**
 * The sandbox's timings, each optional (docs/http-api.md, Schedules): how often the sweeper runs, the
 * first inquiry after an unknown authorization, and how long a hosted page and a challenge wait.
 */
export const sandboxSchedulesSchema = z.strictObject({
  sweep_interval_ms: milliseconds(10, 60_000).optional(),
  inquiry_first_delay_ms: milliseconds(100, 3_600_000).optional(),
  hosted_page_lifetime_ms: milliseconds(1_000, 86_400_000).optional(),
  challenge_lifetime_ms: milliseconds(1_000, 86_400_000).optional(),
});

/**
 * The sandbox API's limit per client: `false` turns it off; each field left out takes its default
 * (`DEFAULT_SANDBOX_RATE_LIMIT` of `paystate/sandbox-server`: 25 requests a second, bursts of 100).
 */
export const sandboxRateLimitSchema = z.union([
  z.literal(false),
  z.strictObject({
    requests_per_second: z.number().min(0.001).max(100_000).optional(),
    burst: z.number().int('must be a whole number').min(1).max(100_000).optional(),
  }),
]);

/**
 * The sandbox's partners, profiles and clients: URL-safe, prefixed and unique ids, bearer tokens too
 * strong to guess (but `PUBLIC_SANDBOX_TOKENS`) and not shared, each client's profiles its partner's.
 * Error messages never repeat a token.
 */
export const sandboxConfigSchema = z
  .strictObject({
    partners: z.array(
      z.strictObject({
        id: partnerId,
        profiles: z.array(z.strictObject({ id: profileId, name: z.string().min(1, 'must not be empty') })),
      }),
    ),
    clients: z.array(
      z.strictObject({
        token,
        partner_id: partnerId,
        profile_ids: z.array(profileId),
        pci_dss_compliant: z.boolean(),
      }),
    ),
    secrets: sandboxSecretsSchema.optional(),
    schedules: sandboxSchedulesSchema.optional(),
    rate_limit: sandboxRateLimitSchema.optional(),
  })
  .superRefine((config, context) => {
    const issue = (path: (string | number)[], message: string): void =>
      context.addIssue({ code: 'custom', path, message });
    const partners = new Map<string, number>();
    const profileOwners = new Map<string, string>();
    config.partners.forEach((partner, partnerIndex) => {
      if (partners.has(partner.id)) issue(['partners', partnerIndex, 'id'], `duplicate partner id ${partner.id}`);
      partners.set(partner.id, partnerIndex);
      partner.profiles.forEach((profile, profileIndex) => {
        if (!profileOwners.has(profile.id)) profileOwners.set(profile.id, partner.id);
        else issue(['partners', partnerIndex, 'profiles', profileIndex, 'id'], `duplicate profile id ${profile.id}`);
      });
    });
    const tokens = new Map<string, number>();
    config.clients.forEach((client, clientIndex) => {
      const first = tokens.get(client.token);
      if (first === undefined) tokens.set(client.token, clientIndex);
      else issue(['clients', clientIndex, 'token'], `same token as clients[${first}]`);
      if (!partners.has(client.partner_id)) {
        issue(['clients', clientIndex, 'partner_id'], `unknown partner ${client.partner_id}`);
        return;
      }
      client.profile_ids.forEach((profileId, profileIndex) => {
        const owner = profileOwners.get(profileId);
        if (owner !== client.partner_id) {
          issue(
            ['clients', clientIndex, 'profile_ids', profileIndex],
            owner === undefined
              ? `unknown profile ${profileId}`
              : `profile ${profileId} belongs to partner ${owner}, not ${client.partner_id}`,
          );
        }
      });
    });
  });

/** A sandbox config as `sandboxConfigSchema` reads it: partners with their profiles, and clients with their tokens. */
export type SandboxConfig = z.infer<typeof sandboxConfigSchema>;

/** The `secrets` of a sandbox config (`sandboxSecretsSchema`). */
export type SandboxSecretsConfig = z.infer<typeof sandboxSecretsSchema>;

/** The `schedules` of a sandbox config (`sandboxSchedulesSchema`). */
export type SandboxSchedules = z.infer<typeof sandboxSchedulesSchema>;

/** The `rate_limit` of a sandbox config (`sandboxRateLimitSchema`). */
export type SandboxRateLimit = z.infer<typeof sandboxRateLimitSchema>;

/** One problem in a sandbox config: where (`clients[0].partner_id`) and what. */
export interface SandboxConfigIssue {
  readonly path: string;
  readonly message: string;
}

/** Why `parseSandboxConfig` refused a config, with every issue it found. */
export interface SandboxConfigError {
  readonly code: 'invalid_config';
  /** Every issue on its own line, `path: message`. */
  readonly message: string;
  readonly issues: readonly SandboxConfigIssue[];
}

function formatPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else text += text === '' ? String(segment) : `.${String(segment)}`;
  }
  return text === '' ? '(root)' : text;
}

/** Validates a parsed JSON sandbox config. */
export function parseSandboxConfig(input: unknown): Result<SandboxConfig, SandboxConfigError> {
  return parseWith(sandboxConfigSchema, input, 'Invalid sandbox config');
}

/** Validates a parsed JSON secrets file: the `secrets` object of a sandbox config on its own. */
export function parseSandboxSecrets(input: unknown): Result<SandboxSecretsConfig, SandboxConfigError> {
  return parseWith(sandboxSecretsSchema, input, 'Invalid sandbox secrets');
}

function parseWith<T>(schema: z.ZodType<T>, input: unknown, headline: string): Result<T, SandboxConfigError> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return ok(parsed.data);
  const issues = parsed.error.issues.map((issue) => ({ path: formatPath(issue.path), message: issue.message }));
  return err({
    code: 'invalid_config',
    message: `${headline}:\n${issues.map((issue) => `  ${issue.path}: ${issue.message}`).join('\n')}`,
    issues,
  });
}
