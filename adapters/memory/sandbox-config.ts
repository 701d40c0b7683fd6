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

/**
 * A partner or profile id: it becomes a path segment of `_links` and `Location`, and the API
 * answers it, so it keeps to the prefixes of the API (`partner_`, `profile_`).
 */
const partnerId = z.string().refine(isPartnerId, `must be ${PARTNER_ID_RULE}`);
const profileId = z.string().refine(isProfileId, `must be ${PROFILE_ID_RULE}`);

/** A token a client can present as `Authorization: Bearer <token>`; the message never repeats it. */
const token = z.string().refine(isApiToken, `must be ${API_TOKEN_RULE}`);

/**
 * The sandbox's list of partners, profiles and clients (decisions.md section 7). Besides the
 * shape it checks that ids are URL-safe, carry their prefix (`PARTNER_ID_RULE`, `PROFILE_ID_RULE`)
 * and are unique, that tokens can be sent
 * as bearer tokens (`API_TOKEN_RULE`), that each client's partner exists and owns the client's
 * profiles, and that no two clients share a token. Error messages never repeat a token.
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
  })
  .superRefine((config, context) => {
    const partners = new Map<string, number>();
    const profileOwners = new Map<string, string>();
    config.partners.forEach((partner, partnerIndex) => {
      if (partners.has(partner.id)) {
        context.addIssue({
          code: 'custom',
          path: ['partners', partnerIndex, 'id'],
          message: `duplicate partner id ${partner.id}`,
        });
      }
      partners.set(partner.id, partnerIndex);
      partner.profiles.forEach((profile, profileIndex) => {
        if (profileOwners.has(profile.id)) {
          context.addIssue({
            code: 'custom',
            path: ['partners', partnerIndex, 'profiles', profileIndex, 'id'],
            message: `duplicate profile id ${profile.id}`,
          });
        } else {
          profileOwners.set(profile.id, partner.id);
        }
      });
    });
    const tokens = new Map<string, number>();
    config.clients.forEach((client, clientIndex) => {
      const first = tokens.get(client.token);
      if (first !== undefined) {
        context.addIssue({
          code: 'custom',
          path: ['clients', clientIndex, 'token'],
          message: `same token as clients[${first}]`,
        });
      } else {
        tokens.set(client.token, clientIndex);
      }
      if (!partners.has(client.partner_id)) {
        context.addIssue({
          code: 'custom',
          path: ['clients', clientIndex, 'partner_id'],
          message: `unknown partner ${client.partner_id}`,
        });
        return;
      }
      client.profile_ids.forEach((profileId, profileIndex) => {
        const owner = profileOwners.get(profileId);
        if (owner !== client.partner_id) {
          context.addIssue({
            code: 'custom',
            path: ['clients', clientIndex, 'profile_ids', profileIndex],
            message:
              owner === undefined
                ? `unknown profile ${profileId}`
                : `profile ${profileId} belongs to partner ${owner}, not ${client.partner_id}`,
          });
        }
      });
    });
  });

/** A sandbox config as `sandboxConfigSchema` reads it: partners with their profiles, and clients with their tokens. */
export type SandboxConfig = z.infer<typeof sandboxConfigSchema>;

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
  const parsed = sandboxConfigSchema.safeParse(input);
  if (parsed.success) return ok(parsed.data);
  const issues = parsed.error.issues.map((issue) => ({ path: formatPath(issue.path), message: issue.message }));
  return err({
    code: 'invalid_config',
    message: `Invalid sandbox config:\n${issues.map((issue) => `  ${issue.path}: ${issue.message}`).join('\n')}`,
    issues,
  });
}
