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
 * Fastify's `frameworkErrors`: refusals of its router under a `paystate()` mount are answered by
 * paystate (as on node:http); any other is a `400 malformed_request` problem with a `Request-Id`.
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
