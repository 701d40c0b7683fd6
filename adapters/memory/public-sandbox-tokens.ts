/**
 * The tokens of the sandbox config bundled with paystate (`adapters/sandbox-server/sandbox-config.json`).
 * They are printed in the docs and shipped in the package, so they protect nothing: sandbox use
 * only, never on a server that holds anything of value. Public anyway, they are the only tokens a
 * sandbox config may hold that are weaker than `API_TOKEN_STRENGTH_RULE`, so that the bundled
 * config, and copies of it with secrets or schedules added, keep working.
 */
export const PUBLIC_SANDBOX_TOKENS: ReadonlySet<string> = new Set([
  'sandbox_pci_compliant_token',
  'sandbox_hosted_only_token',
  'sandbox_outlet_only_token',
]);
