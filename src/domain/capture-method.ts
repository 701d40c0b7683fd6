/** How an approved authorization is captured (docs/http-api.md, Captures). */
export const CAPTURE_METHODS = Object.freeze(['automatic', 'manual'] as const);

/**
 * `automatic` (the default): the authorization is a sale, captured at once. `manual`: the money is
 * only reserved until the client captures it, cancels it, or the authorization expires.
 */
export type CaptureMethod = (typeof CAPTURE_METHODS)[number];
