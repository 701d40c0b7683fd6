import type { BrowserData } from '../../../src/domain/contact.js';
import { browserDataSchema, COLOR_DEPTHS } from '../../../src/schemas/browser-data.js';

/** Hidden form fields the page script fills with the browser's 3DS data. */
export const BROWSER_FIELDS = [
  'screen_width',
  'screen_height',
  'color_depth',
  'timezone_offset',
  'language',
  'java_enabled',
  'javascript_enabled',
] as const;

/**
 * What is sent when the page script did not run (JavaScript off): EMV 3DS does not need screen
 * data from such a browser, but paystate's `user` object requires every field, so plain values
 * are sent with `javascript_enabled: false`, which tells the issuer they are not measured.
 */
const NO_SCRIPT_DEFAULTS = {
  screen_width: 1024,
  screen_height: 768,
  color_depth: 24,
  timezone_offset: 0,
  language: 'en',
  java_enabled: false,
} as const;

/** Stands in for an address when the host could not tell the client's (the `clientIp` option returned nothing). */
export const UNKNOWN_CLIENT_IP = '0.0.0.0';

const HEADER_MAX = 2048;
/** The engine's own rule for `user.language` (a BCP 47 tag of at most 35 characters). */
const LANGUAGE = browserDataSchema.shape.language;

function header(request: Request, name: string, fallback: string): string {
  const value = request.headers.get(name)?.trim() ?? '';
  return (value === '' ? fallback : value).slice(0, HEADER_MAX);
}

function integer(text: string | null, min: number, max: number): number | undefined {
  if (text === null || !/^-?\d{1,6}$/.test(text)) return undefined;
  const value = Number(text);
  return value >= min && value <= max ? value : undefined;
}

/** The tag when the engine takes it; a tag it would refuse (`en-GB-oed`, `de-DE-x`) gives way to the fallback. */
function language(text: string | null | undefined): string | undefined {
  const tag = text?.trim() ?? '';
  return LANGUAGE.safeParse(tag).success ? tag : undefined;
}

/** The first language of an `Accept-Language` header (`de-CH,de;q=0.9` → `de-CH`). */
function firstAcceptedLanguage(header: string | null): string | undefined {
  return language(header?.split(',')[0]?.split(';')[0]);
}

/**
 * The cardholder's browser data for 3DS: the form post's headers, the client's address and what the
 * page script put in hidden fields; a field missing or malformed gets a plain default.
 */
export function collectBrowserData(request: Request, form: URLSearchParams, ipAddress: string): BrowserData {
  const scripted = form.get('javascript_enabled') === 'true';
  const measured = (name: string, min: number, max: number) =>
    scripted ? integer(form.get(name), min, max) : undefined;
  const depth = measured('color_depth', 1, 48);
  return {
    ip_address: ipAddress,
    user_agent: header(request, 'user-agent', 'unknown'),
    accept: header(request, 'accept', '*/*'),
    accept_encoding: header(request, 'accept-encoding', ''),
    accept_language: header(request, 'accept-language', ''),
    language:
      (scripted ? language(form.get('language')) : undefined) ??
      firstAcceptedLanguage(request.headers.get('accept-language')) ??
      NO_SCRIPT_DEFAULTS.language,
    screen_width: measured('screen_width', 1, 999_999) ?? NO_SCRIPT_DEFAULTS.screen_width,
    screen_height: measured('screen_height', 1, 999_999) ?? NO_SCRIPT_DEFAULTS.screen_height,
    java_enabled: scripted && form.get('java_enabled') === 'true',
    javascript_enabled: scripted,
    color_depth:
      depth !== undefined && (COLOR_DEPTHS as readonly number[]).includes(depth)
        ? depth
        : NO_SCRIPT_DEFAULTS.color_depth,
    timezone_offset: measured('timezone_offset', -840, 720) ?? NO_SCRIPT_DEFAULTS.timezone_offset,
  };
}
