/** Address object of the API (docs/http-api.md, Create a payment says which fields are required). */
export interface Address {
  readonly premise?: string;
  readonly thoroughfare: string;
  readonly locality: string;
  readonly state?: string;
  readonly postal_code: string;
  /** ISO 3166-1 alpha-2, upper case */
  readonly country: string;
}

/** Contact object used for `billing` and `shipping`. */
export interface Contact {
  readonly first_name: string;
  readonly last_name: string;
  readonly email: string;
  readonly phone?: string;
  readonly address: Address;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** A contact as a parser or a JSON column gives it: optional fields possibly `undefined`. */
export type ContactFields = {
  readonly [K in keyof Contact]: K extends 'address'
    ? { readonly [A in keyof Address]: Address[A] | (undefined extends Address[A] ? undefined : never) }
    : Contact[K] | (undefined extends Contact[K] ? undefined : never);
};

/**
 * A copy of a contact with its keys in the one order paystate writes everywhere (required
 * fields in the API's order, then the optional ones present), absent optional fields left out.
 * Answers then read the same byte for byte whichever adapter stored the contact.
 */
export function contactInOrder(c: ContactFields): Contact {
  const a = c.address;
  const address: Mutable<Address> = {
    thoroughfare: a.thoroughfare,
    locality: a.locality,
    postal_code: a.postal_code,
    country: a.country,
  };
  if (a.premise !== undefined) address.premise = a.premise;
  if (a.state !== undefined) address.state = a.state;
  const contact: Mutable<Contact> = { first_name: c.first_name, last_name: c.last_name, email: c.email, address };
  if (c.phone !== undefined) contact.phone = c.phone;
  return contact;
}

/** Browser data for EMV 3DS (the API's `user` object). */
export interface BrowserData {
  readonly ip_address: string;
  readonly user_agent: string;
  readonly accept: string;
  readonly accept_encoding: string;
  readonly accept_language: string;
  readonly language: string;
  readonly screen_width: number;
  readonly screen_height: number;
  readonly java_enabled: boolean;
  readonly javascript_enabled: boolean;
  readonly color_depth: number;
  readonly timezone_offset: number;
}

/**
 * The browser data as EMV 3DS takes it: a colour depth of 30, which browsers report for 10 bits
 * per channel and 3DS does not list, is sent as 24 (docs/http-api.md, Create a payment).
 */
export function browserDataForThreeDS(browser: BrowserData): BrowserData {
  return browser.color_depth === 30 ? { ...browser, color_depth: 24 } : browser;
}
