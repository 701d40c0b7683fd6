/**
 * The tokens of the bundled sandbox config (`adapters/sandbox-server/sandbox-config.json`): public, so
 * sandbox use only; the only tokens a config may hold that are weaker than `API_TOKEN_STRENGTH_RULE`.
 */
export const PUBLIC_SANDBOX_TOKENS: ReadonlySet<string> = new Set([
  'sandbox_pci_compliant_token',
  'sandbox_hosted_only_token',
  'sandbox_outlet_only_token',
]);
