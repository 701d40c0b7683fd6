import type { PublicOperation } from '../../src/domain/money-operation.js';
import type { Link, Payment } from '../../src/domain/payment.js';
import type { PaymentList } from '../../src/engine/query-payments.js';

/**
 * A mount prefix (`/api`) normalised: empty, or a leading `/` and no trailing `/`.
 * @throws TypeError for a prefix with a query, fragment, or `//`.
 */
export function normalizeBasePath(basePath: string | undefined): string {
  if (basePath === undefined || basePath === '' || basePath === '/') return '';
  const trimmed = basePath.replace(/\/+$/, '');
  const withSlash = trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
  if (/[?#]|\/\//.test(withSlash)) throw new TypeError(`basePath must be a plain path, got ${basePath}`);
  return withSlash;
}

/** The request path with the mount prefix removed, when it starts with it. */
export function stripBasePath(path: string, basePath: string): string {
  if (basePath === '') return path;
  if (path === basePath) return '/';
  return path.startsWith(`${basePath}/`) ? path.slice(basePath.length) : path;
}

/** `value` with every `_links` href under the mount prefix, so the links resolve where the API is mounted. */
function linksUnder<T extends { readonly _links: Readonly<Record<string, Link>> }>(basePath: string, value: T): T {
  if (basePath === '') return value;
  const links = Object.entries(value._links).map(([name, link]) => [
    name,
    { ...link, href: `${basePath}${link.href}` },
  ]);
  return { ...value, _links: Object.fromEntries(links) as T['_links'] };
}

/** The payment with its `_links` under the mount prefix. */
export const paymentUnder = (basePath: string, payment: Payment): Payment => linksUnder(basePath, payment);

/** A page of payments, each with its `_links` under the mount prefix. */
export function paymentListUnder(basePath: string, list: PaymentList): PaymentList {
  return basePath === '' ? list : { ...list, items: list.items.map((payment) => linksUnder(basePath, payment)) };
}

/** A capture or refund with its `_links` under the mount prefix. */
export const operationUnder = (basePath: string, operation: PublicOperation): PublicOperation =>
  linksUnder(basePath, operation);
