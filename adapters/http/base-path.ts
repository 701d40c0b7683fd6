import type { PublicOperation } from '../../src/domain/money-operation.js';
import type { Payment } from '../../src/domain/payment.js';
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

/** The payment with its `_links` under the mount prefix, so they resolve where the API is mounted. */
export function paymentUnder(basePath: string, payment: Payment): Payment {
  if (basePath === '') return payment;
  const { self, profile } = payment._links;
  return {
    ...payment,
    _links: {
      self: { ...self, href: `${basePath}${self.href}` },
      profile: { ...profile, href: `${basePath}${profile.href}` },
    },
  };
}

export function paymentListUnder(basePath: string, list: PaymentList): PaymentList {
  return basePath === '' ? list : { ...list, items: list.items.map((payment) => paymentUnder(basePath, payment)) };
}

/** A capture or refund with its `_links` under the mount prefix (as `paymentUnder`). */
export function operationUnder(basePath: string, operation: PublicOperation): PublicOperation {
  if (basePath === '') return operation;
  const { self, payment } = operation._links;
  return {
    ...operation,
    _links: {
      self: { ...self, href: `${basePath}${self.href}` },
      payment: { ...payment, href: `${basePath}${payment.href}` },
    },
  };
}
