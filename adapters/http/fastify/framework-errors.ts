import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { guardLogger, type Logger } from '../../../src/ports/logger.js';
import { sendAnswer } from '../node-answer.js';
import { serverProblemAnswer } from '../problem-details.js';
import { requestIdSource } from '../request-id.js';
import { mountFor } from './fastify-mounts.js';

/** Options of `paystateFrameworkErrors`: how it answers a request outside paystate's mounts. */
export interface PaystateFrameworkErrorsOptions {
  /** Prefix of the problem `type` URIs. Default `urn:paystate:problem:`. */
  readonly problemTypeBase?: string;
  /** Makes the `Request-Id` of those answers. Default: `req_` and 32 hex digits. */
  readonly requestId?: () => string;
  /** Receives the warning of a `requestId` that fails. Default: none. */
  readonly logger?: Logger;
}

/** What Fastify's `frameworkErrors` option takes. */
export type FrameworkErrorsHandler = (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => void;

/**
 * Fastify's `frameworkErrors` option (`Fastify({ frameworkErrors: paystateFrameworkErrors() })`):
 * the refusals Fastify's router makes before any plugin sees the request (a target whose `%`
 * escapes do not decode, a path parameter over `maxParamLength`, a constraint that failed). A
 * request under a mount of `paystate()` is answered by paystate, as on bare node:http (a 404
 * problem for a path that names nothing); any other is a `400 malformed_request` problem document
 * with a `Request-Id`, never Fastify's own error format.
 */
export function paystateFrameworkErrors(options: PaystateFrameworkErrorsOptions = {}): FrameworkErrorsHandler {
  const logger = options.logger === undefined ? undefined : guardLogger(options.logger);
  const requestIds = requestIdSource(options.requestId, logger);
  return (_error, request, reply) => {
    const mount = mountFor(request.server.server, request.raw.url ?? '/');
    if (mount !== undefined) {
      mount.serve(request, reply);
      return;
    }
    reply.hijack();
    const answer = serverProblemAnswer('malformed_request', 'The request target is not valid', options.problemTypeBase);
    sendAnswer(request.raw, reply.raw, answer, requestIds(), options.problemTypeBase);
  };
}
