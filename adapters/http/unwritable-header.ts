/** What node's `res.setHeader` accepts in a header value: tab, visible ASCII, space, and 0x80 to 0xFF. */
const NODE_HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** Whether node's `res.setHeader` writes `value` (no control character but tab). */
export function isWritableHeaderValue(value: string): boolean {
  return NODE_HEADER_VALUE.test(value);
}

/**
 * The name of the first header whose value node would refuse to write (`ERR_INVALID_CHAR`: a
 * control character, which fetch's `Headers` lets through), or undefined when every one is writable.
 */
export function unwritableHeader(headers: Headers): string | undefined {
  for (const [name, value] of headers) if (!NODE_HEADER_VALUE.test(value)) return name;
  return undefined;
}
