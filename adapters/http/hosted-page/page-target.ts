/** What a path under the hosted page's `basePath` names, and where its assets are relative to it. */
export interface PageTarget {
  /** The asset's file name, for `{basePath}/assets/{name}`. */
  readonly asset?: string;
  /** The payment id, decoded, for `{basePath}/{payment_id}`. */
  readonly paymentId?: string;
  readonly assetPrefix: string;
}

const SEGMENT = /^[^/]+$/;

/** A path segment, percent-decoded; undefined when it does not decode or is empty or longer than 200. */
export function decodeSegment(segment: string): string | undefined {
  try {
    const decoded = decodeURIComponent(segment);
    return decoded === '' || decoded.length > 200 ? undefined : decoded;
  } catch {
    return undefined;
  }
}

/** Reads `path` (`basePath` or below it); neither `asset` nor `paymentId` when it names nothing. */
export function pageTarget(path: string, basePath: string): PageTarget {
  const rest = path.slice(basePath.length + 1);
  const parts = rest.split('/');
  const depth = Math.max(parts.length - 1, 0);
  // Relative to the page, so that it also works below a mount prefix the handler does not see.
  // `{basePath}` itself (no trailing slash) sits one level up: its assets are `./pay/assets/`.
  const assetPrefix =
    path === basePath ? `./${basePath.slice(basePath.lastIndexOf('/') + 1)}/assets/` : `${'../'.repeat(depth)}assets/`;
  if (parts.length === 2 && parts[0] === 'assets' && parts[1] !== undefined) return { asset: parts[1], assetPrefix };
  const paymentId = parts.length === 1 && SEGMENT.test(rest) ? decodeSegment(rest) : undefined;
  return paymentId === undefined ? { assetPrefix } : { paymentId, assetPrefix };
}
