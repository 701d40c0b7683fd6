import type { IncomingMessage } from 'node:http';

/** Takes a header off a node request, in both of its views. */
export function dropHeader(req: IncomingMessage, name: string): void {
  const raw = req.rawHeaders;
  for (let i = raw.length - 2; i >= 0; i -= 2) if (raw[i]?.toLowerCase() === name) raw.splice(i, 2);
  delete req.headers[name];
}

/**
 * A host middleware or hook that presents paystate's token sets `req.headers.authorization`;
 * `@hono/node-server` reads the raw header lines, so the host's value replaces the client's there.
 */
export function presentHostAuthorization(req: IncomingMessage): void {
  const given = req.headers.authorization;
  const raw = req.rawHeaders;
  const first = raw.findIndex((name, at) => at % 2 === 0 && name.toLowerCase() === 'authorization');
  if (given === undefined || (first >= 0 && raw[first + 1] === given)) return;
  dropHeader(req, 'authorization');
  req.headers.authorization = given;
  raw.push('authorization', given);
}
