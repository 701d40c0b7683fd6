import type { ErrorRequestHandler } from 'express';
import { guardLogger, type Logger } from '../../../src/ports/logger.js';
import { requestIdSource } from '../request-id.js';
import { problem, problemAnswer, type Problem } from '../problem-details.js';
import { sendAnswer } from '../node-answer.js';

const UNREADABLE = 'The request body could not be read';

/**
 * Codes of the errors node's zlib gives for a body that is not what its `Content-Encoding` says
 * (gzip and deflate `Z_…`, brotli `ERR__ERROR_…`, zstd `ZSTD_error_…`): body-parser hands them on
 * as they are, with status 400 and no `type`.
 */
const DECOMPRESSION_ERROR = /^(?:Z_|ERR__ERROR_|ZSTD_error_)/;

/** An error a body parser (body-parser 1 and 2, as `express.json()` and the others) passed to `next`. */
interface ParserError {
  readonly type?: unknown;
  readonly status?: unknown;
  readonly code?: unknown;
}

/**
 * The problem of a body parser's error, by its `type` (body-parser's and raw-body's, listed in
 * their sources); undefined for any other error. The details are fixed texts: the error's own
 * message and its `body` may quote the request body, card number included.
 */
function problemOf(error: ParserError): Problem | undefined {
  switch (error.type) {
    case 'entity.parse.failed':
      return problem('invalid_json', 'The request body is not valid JSON');
    case 'entity.verify.failed':
      // The host's `verify` callback refused the body (body-parser answers 403 by default).
      return problem('validation_failed', 'The request body was refused');
    case 'entity.too.large':
      return problem('payload_too_large', 'The request body is too large');
    case 'parameters.too.many':
      return problem('payload_too_large', 'The form body has too many fields');
    case 'querystring.parse.rangeError':
    case 'paystate.body.unencodable':
      return problem('validation_failed', 'The form body cannot be read: it is nested too deeply or is not form data');
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return problem('unsupported_media_type', 'Send the request body as application/json (UTF-8)');
    case 'request.aborted':
    case 'request.size.invalid':
      return problem('invalid_json', UNREADABLE);
    case 'stream.encoding.set':
    case 'stream.not.readable':
      // raw-body's "developer errors" (status 500): the host set an encoding on the request, or
      // something read it without telling the parser. Nothing the client can fix.
      return problem('internal_error', 'The request body could not be read by the server');
    case undefined:
      return error.status === 400 && typeof error.code === 'string' && DECOMPRESSION_ERROR.test(error.code)
        ? problem('invalid_json', UNREADABLE)
        : undefined;
    default:
      return undefined;
  }
}

/** Options of `paystateErrorHandler`. */
export interface PaystateErrorHandlerOptions {
  /** Prefix of the problem `type` URIs. Default `urn:paystate:problem:`. */
  readonly problemTypeBase?: string;
  /** Receives the parser errors answered `500` (the host's set-up, not the request). Default: none. */
  readonly logger?: Logger;
  /**
   * Makes the `Request-Id` of each problem it answers. Default: `req_` and 32 hex digits. One
   * that throws or gives no header token falls back to the default (see `ApiOptions.requestId`).
   */
  readonly requestId?: () => string;
}

/**
 * Express error middleware answering a host body parser's errors as problem documents with a
 * `Request-Id`, never quoting the body: `app.use('/payments', paystateErrorHandler())`. Others go on.
 */
export function paystateErrorHandler(options: PaystateErrorHandlerOptions = {}): ErrorRequestHandler {
  const logger = options.logger === undefined ? undefined : guardLogger(options.logger);
  const requestIds = requestIdSource(options.requestId, logger);
  return (error: unknown, req, res, next) => {
    const found = typeof error === 'object' && error !== null ? problemOf(error) : undefined;
    if (found === undefined || res.headersSent) {
      next(error);
      return;
    }
    const requestId = requestIds();
    if (found.code === 'internal_error') {
      const { type } = error as ParserError;
      logger?.error({ method: req.method, type, requestId }, 'a body parser before paystate failed');
    }
    sendAnswer(req, res, problemAnswer(found, options.problemTypeBase), requestId, options.problemTypeBase);
  };
}
