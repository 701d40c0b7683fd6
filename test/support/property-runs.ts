/**
 * Cases per fast-check property: 1,000 in CI and by default; `PROPERTY_RUNS` overrides it
 * (e.g. more for a soak run, fewer while iterating locally).
 */
export const NUM_RUNS = Number(process.env['PROPERTY_RUNS'] ?? 1000);
