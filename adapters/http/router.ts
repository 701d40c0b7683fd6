/**
 * A small path router: routes are segment patterns (`['v1', 'profiles', ':profile_id']`); a path
 * that matches a pattern but not its method is a 405 with the allowed methods.
 */
export interface RouteDefinition<H> {
  /** `GET` routes also answer `HEAD`. */
  readonly method: 'GET' | 'POST';
  /** Segments; `:name` captures one segment. */
  readonly pattern: readonly string[];
  /** Name for logs, e.g. `POST /v1/profiles/{profile_id}/payments`. */
  readonly name: string;
  readonly handler: H;
}

export type RouteMatch<H> =
  | { readonly kind: 'found'; readonly route: RouteDefinition<H>; readonly params: Readonly<Record<string, string>> }
  | { readonly kind: 'method_not_allowed'; readonly allow: readonly string[] }
  | { readonly kind: 'not_found' };

/** Splits a path (`/v1/profiles/x`) into decoded segments; null when a segment is not valid percent-encoding. */
export function pathSegments(path: string): string[] | null {
  const raw = path.split('/').slice(1);
  const segments: string[] = [];
  for (const segment of raw) {
    try {
      segments.push(decodeURIComponent(segment));
    } catch {
      return null;
    }
  }
  return segments;
}

function matchPattern(pattern: readonly string[], segments: readonly string[]): Record<string, string> | null {
  if (pattern.length !== segments.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const expected = pattern[i] as string;
    const actual = segments[i] as string;
    if (expected.startsWith(':')) {
      if (actual === '') return null;
      params[expected.slice(1)] = actual;
    } else if (expected !== actual) {
      return null;
    }
  }
  return params;
}

export function createRouter<H>(routes: readonly RouteDefinition<H>[]) {
  return {
    match(method: string, segments: readonly string[]): RouteMatch<H> {
      const allow = new Set<string>();
      for (const route of routes) {
        const params = matchPattern(route.pattern, segments);
        if (params === null) continue;
        if (route.method === method || (route.method === 'GET' && method === 'HEAD')) {
          return { kind: 'found', route, params };
        }
        allow.add(route.method);
        if (route.method === 'GET') allow.add('HEAD');
      }
      return allow.size === 0 ? { kind: 'not_found' } : { kind: 'method_not_allowed', allow: [...allow].sort() };
    },
  };
}
