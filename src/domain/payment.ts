import type { CaptureMethod } from './capture-method.js';
import type { CardScheme } from './card.js';
import type { Contact } from './contact.js';
import type { FailureReason } from './failure-reason.js';
import type { PublicState } from './payment-state.js';

/** A link of `_links`: a path of the v1 API, answered as JSON. */
export interface Link {
  readonly href: string;
  readonly type: 'application/json';
}

/** `creditcard` in the response form: what the API returns about the card. Never the number or CVC. */
export interface PublicCreditCard {
  readonly rrn?: string;
  readonly fees?: { readonly interchange: number; readonly assesment: number };
  readonly card: {
    readonly scheme: CardScheme;
    readonly type?: string;
    readonly region?: string;
    readonly last4: string;
    /** `binOf`: 8 digits; 2 to 5 of a number under 16 digits (6 in payments stored by earlier versions). */
    readonly bin: string;
    readonly expiration: string;
    readonly holder_name: string;
    readonly issuing_country?: string;
  };
}

/** The payment as the API returns it (payments-api.md, "Payment"). */
export interface Payment {
  readonly id: string;
  readonly description?: string;
  readonly reference?: string;
  readonly method: 'creditcard';
  readonly currency: string;
  readonly amount: number;
  readonly billing: Contact;
  readonly shipping: Contact;
  readonly creditcard?: PublicCreditCard;
  readonly session: { readonly redirect_url: string };
  readonly next?: { readonly redirect: string };
  readonly state: PublicState;
  /** Extension (docs/state-machine.md): present when `state` is `failed`. */
  readonly failure_reason?: FailureReason;
  readonly created: string;
  /** Extension (docs/http-api.md, Captures): `automatic` or `manual`. */
  readonly capture_method: CaptureMethod;
  /** What can still be captured: `amount` minus captures not failed; 0 once closed, and for automatic capture. */
  readonly amount_capturable: number;
  /** Succeeded captures; `amount` for a succeeded automatic payment. */
  readonly amount_captured: number;
  /** Succeeded refunds. */
  readonly amount_refunded: number;
  /** A manual payment whose authorization is open: when it lapses (ISO 8601). */
  readonly authorization_expires_at?: string;
  readonly _links: { readonly self: Link; readonly profile: Link };
}

/**
 * An id as a path segment, percent-encoded. Ids keep to URL-safe characters and never are `.`
 * or `..`, which no URL can carry as a segment (`isTenancyId`), so this rarely changes one.
 */
const segment = (id: string): string => encodeURIComponent(id);

/** `/v1/partners/{partner}/profiles/{profile}/payments/{payment}`, each id percent-encoded. */
export function paymentPath(partnerId: string, profileId: string, paymentId: string): string {
  return `${profilePath(partnerId, profileId)}/payments/${segment(paymentId)}`;
}

/** `/v1/partners/{partner}/profiles/{profile}`, each id percent-encoded. */
export function profilePath(partnerId: string, profileId: string): string {
  return `/v1/partners/${segment(partnerId)}/profiles/${segment(profileId)}`;
}
