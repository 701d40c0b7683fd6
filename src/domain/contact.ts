/** Address object of the API (decisions.md section 4 says which fields are required). */
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
