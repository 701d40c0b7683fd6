import type { ErrorRequestHandler } from 'express';
import { problem, problemAnswer, type Problem } from '../http/problem-details.js';
import { writeAnswer } from '../http/node-listener.js';

function problemOf(error: unknown): Problem | undefined {
  const type = typeof error === 'object' && error !== null ? (error as { type?: unknown }).type : undefined;
  switch (type) {
    case 'entity.parse.failed':
      return problem('invalid_json', 'The request body is not valid JSON');
    case 'entity.too.large':
      return problem('payload_too_large', 'The request body is too large');
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return problem('unsupported_media_type', 'Send the request body as application/json (UTF-8)');
    case 'paystate.body.unencodable':
      return problem('validation_failed', 'The form body cannot be read: it is nested too deeply or is not form data');
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
    case 'stream.not.readable':
      return problem('invalid_json', 'The request body could not be read');
    default:
      return undefined;
  }
}

/**
 * Express error middleware that answers the errors of a body parser the host registered before
 * paystate (`express.json()`: malformed JSON, too large, bad charset) with paystate's problem
 * documents instead of Express's HTML page. Mount it on the same path as `paystate()`:
 * `app.use('/payments', paystateErrorHandler())`. Other errors go on to the next handler.
 */
export function paystateErrorHandler(options: { readonly problemTypeBase?: string } = {}): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    const found = problemOf(error);
    if (found === undefined || res.headersSent) {
      next(error);
      return;
    }
    writeAnswer(req, res, problemAnswer(found, options.problemTypeBase));
  };
}
