import { describe, expectTypeOf, it } from 'vitest';
import {
  DEFAULT_PAYMENT_MACHINE_OPTIONS,
  HEALTH_PROBE_PAYMENT_ID,
  type BackgroundLoopStatus,
  type BackgroundTickFailure,
  type BackgroundWorker,
  type BackgroundWorkerState,
  type BackgroundWorkerStatus,
  type DeliveryTickReport,
  type HealthCheckOptions,
  type HealthReport,
  type PaymentEngine,
  type StorageHealth,
  type SweepReport,
  type DomainEvent,
  type EventSinkError,
  type InternalState,
  type PaymentError,
  type PaymentErrorCode,
  type PaymentMachineOptions,
  type PublicState,
  type ResolvedPaymentMachineOptions,
} from 'paystate';
import {
  DEFAULT_OPENAPI_SERVERS,
  type BodyReadFailure,
  type HttpRequest,
  type JsonSchema,
  type OpenApiDocument,
  type OpenApiExample,
  type OpenApiHeader,
  type OpenApiInfo,
  type OpenApiMediaType,
  type OpenApiMethod,
  type OpenApiOperation,
  type OpenApiOptions,
  type OpenApiParameter,
  type OpenApiPathItem,
  type OpenApiReference,
  type OpenApiRequestBody,
  type OpenApiResponse,
  type OpenApiSecurityScheme,
  type OpenApiServer,
  type OpenApiTag,
} from 'paystate/http';
import type { Result, ResultAsync } from 'neverthrow';
import type { CredentialInputError, PostgresCredentialStore } from 'paystate/postgres';
import {
  createWebhookEventSink,
  parseWebhookEvent,
  verifyWebhookSignature,
  type VerifiedWebhookSignature,
  type WebhookEvent,
  type WebhookEventError,
  type WebhookEventErrorCode,
  type WebhookEventSink,
  type WebhookVerificationError,
} from 'paystate/webhooks';

/**
 * Every type a public signature uses can be named from the entry that exports the signature, and
 * the unions a consumer switches on are closed. Checked by `tsc` (`npm run typecheck`); the
 * assertions also run, trivially, under vitest.
 */

/** Exhaustive over a union: fails to compile when a member is added and not handled. */
const exhaustive = (value: never): never => {
  throw new Error(`unhandled ${String(value)}`);
};

describe('public types', () => {
  it('names the types the core signatures use', () => {
    expectTypeOf(DEFAULT_PAYMENT_MACHINE_OPTIONS).toEqualTypeOf<ResolvedPaymentMachineOptions>();
    expectTypeOf<ResolvedPaymentMachineOptions>().toEqualTypeOf<Required<PaymentMachineOptions>>();
  });

  it('names the types of the health API', () => {
    expectTypeOf(HEALTH_PROBE_PAYMENT_ID).toBeString();
    expectTypeOf<PaymentEngine['checkHealth']>().parameter(0).toEqualTypeOf<HealthCheckOptions | undefined>();
    expectTypeOf<PaymentEngine['checkHealth']>().returns.toEqualTypeOf<ResultAsync<HealthReport, never>>();
    expectTypeOf<HealthReport['storage']>().toEqualTypeOf<StorageHealth>();
    expectTypeOf<HealthReport['worker']>().toEqualTypeOf<BackgroundWorkerStatus | undefined>();
    expectTypeOf<BackgroundWorker['status']>().returns.toEqualTypeOf<BackgroundWorkerStatus>();
    expectTypeOf<BackgroundWorkerStatus['state']>().toEqualTypeOf<BackgroundWorkerState>();
    expectTypeOf<BackgroundWorkerStatus['sweep']>().toEqualTypeOf<BackgroundLoopStatus<SweepReport>>();
    expectTypeOf<BackgroundWorkerStatus['delivery']>().toEqualTypeOf<BackgroundLoopStatus<DeliveryTickReport>>();
    expectTypeOf<BackgroundLoopStatus<SweepReport>['lastFailure']>().toEqualTypeOf<BackgroundTickFailure | null>();
    const working = (state: BackgroundWorkerState): boolean => {
      switch (state) {
        case 'running':
          return true;
        case 'stopping':
        case 'stopped':
          return false;
        default:
          return exhaustive(state);
      }
    };
    const ready = (status: StorageHealth['status']): boolean => {
      switch (status) {
        case 'ok':
          return true;
        case 'unavailable':
          return false;
        default:
          return exhaustive(status);
      }
    };
    expectTypeOf(working).returns.toBeBoolean();
    expectTypeOf(ready).returns.toBeBoolean();
  });

  it('names the types the paystate/http signatures use', () => {
    expectTypeOf<HttpRequest['readBody']>().returns.resolves.toEqualTypeOf<Result<Uint8Array, BodyReadFailure>>();
    expectTypeOf<BodyReadFailure>().toEqualTypeOf<'too_large' | 'unreadable'>();
    expectTypeOf(DEFAULT_OPENAPI_SERVERS).toEqualTypeOf<readonly OpenApiServer[]>();
    expectTypeOf<OpenApiOptions['info']>().toEqualTypeOf<Partial<OpenApiInfo> | undefined>();
    expectTypeOf<OpenApiDocument['paths'][string]>().toEqualTypeOf<OpenApiPathItem>();
    expectTypeOf<OpenApiPathItem[OpenApiMethod]>().toEqualTypeOf<OpenApiOperation | undefined>();
    expectTypeOf<OpenApiDocument['tags'][number]>().toEqualTypeOf<OpenApiTag>();
    expectTypeOf<OpenApiDocument['components']['securitySchemes'][string]>().toEqualTypeOf<OpenApiSecurityScheme>();
    expectTypeOf<OpenApiOperation['requestBody']>().toEqualTypeOf<OpenApiRequestBody | undefined>();
    expectTypeOf<OpenApiOperation['responses'][string]>().toEqualTypeOf<OpenApiResponse>();
    expectTypeOf<NonNullable<OpenApiOperation['parameters']>[number]>().toEqualTypeOf<
      OpenApiParameter | OpenApiReference
    >();
    expectTypeOf<NonNullable<OpenApiResponse['headers']>[string]>().toEqualTypeOf<OpenApiHeader>();
    expectTypeOf<NonNullable<OpenApiResponse['content']>[string]>().toEqualTypeOf<OpenApiMediaType>();
    expectTypeOf<NonNullable<OpenApiMediaType['examples']>[string]>().toEqualTypeOf<OpenApiExample>();
    expectTypeOf<OpenApiMediaType['schema']>().toEqualTypeOf<JsonSchema>();
  });

  it('names the types of paystate/webhooks, whose error codes a receiver can switch on exhaustively', () => {
    expectTypeOf(createWebhookEventSink).returns.toEqualTypeOf<WebhookEventSink>();
    expectTypeOf<WebhookEventSink['publish']>().returns.toEqualTypeOf<ResultAsync<void, EventSinkError>>();
    expectTypeOf(verifyWebhookSignature).returns.toEqualTypeOf<
      Result<VerifiedWebhookSignature, WebhookVerificationError>
    >();
    expectTypeOf(parseWebhookEvent).returns.toEqualTypeOf<Result<WebhookEvent, WebhookEventError>>();
    const status = (code: WebhookEventErrorCode): number => {
      switch (code) {
        case 'unknown_event_type':
          return 204;
        case 'malformed_payload':
          return 400;
        case 'payload_too_large':
          return 413;
        case 'missing_header':
        case 'malformed_header':
        case 'no_matching_signature':
        case 'timestamp_out_of_tolerance':
          return 401;
        default:
          return exhaustive(code);
      }
    };
    expectTypeOf(status).returns.toBeNumber();
  });

  it('names the errors of the paystate/postgres credential store', () => {
    type PutProfileError =
      Awaited<ReturnType<PostgresCredentialStore['putProfile']>> extends infer R
        ? R extends { isErr(): this is { error: infer E } }
          ? E
          : never
        : never;
    expectTypeOf<CredentialInputError>().toMatchTypeOf<PutProfileError>();
  });

  it('lets a consumer switch exhaustively on error codes, states and event types', () => {
    const describe = (error: PaymentError): string => {
      switch (error.code) {
        case 'validation_failed':
          return error.errors.map((issue) => issue.path).join(', ');
        case 'invalid_state':
          return error.state;
        case 'unavailable':
          return error.outcome ?? error.message;
        case 'unauthorized':
        case 'forbidden_profile':
        case 'direct_flow_not_permitted':
        case 'not_found':
        case 'conflict':
        case 'idempotency_in_progress':
        case 'idempotency_key_reused':
        case 'payment_not_capturable':
        case 'payment_not_cancelable':
        case 'payment_not_refundable':
        case 'amount_exceeds_capturable':
        case 'amount_exceeds_refundable':
        case 'internal_error':
          return error.message;
        default:
          return exhaustive(error);
      }
    };
    const retryableCode = (code: PaymentErrorCode): boolean => {
      switch (code) {
        case 'conflict':
        case 'idempotency_in_progress':
        case 'unavailable':
          return true;
        case 'validation_failed':
        case 'invalid_state':
        case 'unauthorized':
        case 'forbidden_profile':
        case 'direct_flow_not_permitted':
        case 'not_found':
        case 'idempotency_key_reused':
        case 'payment_not_capturable':
        case 'payment_not_cancelable':
        case 'payment_not_refundable':
        case 'amount_exceeds_capturable':
        case 'amount_exceeds_refundable':
        case 'internal_error':
          return false;
        default:
          return exhaustive(code);
      }
    };
    const settled = (state: PublicState): boolean => {
      switch (state) {
        case 'processing':
          return false;
        case 'succeeded':
        case 'failed':
        case 'expired':
          return true;
        default:
          return exhaustive(state);
      }
    };
    const waitsForCardholder = (state: InternalState): boolean => {
      switch (state) {
        case 'awaiting_card_data':
        case 'awaiting_challenge':
          return true;
        case 'authenticating':
        case 'authorizing':
        case 'succeeded':
        case 'failed':
        case 'expired':
          return false;
        default:
          return exhaustive(state);
      }
    };
    const final = (event: DomainEvent): boolean => {
      switch (event.type) {
        case 'payment.created':
        case 'payment.action_required':
          return false;
        case 'payment.succeeded':
        case 'payment.failed':
        case 'payment.expired':
          return true;
        case 'payment.captured':
        case 'payment.capture_failed':
        case 'payment.canceled':
        case 'payment.authorization_expired':
        case 'refund.succeeded':
        case 'refund.failed':
          return false;
        default:
          return exhaustive(event.type);
      }
    };
    expectTypeOf(describe).returns.toBeString();
    expectTypeOf(retryableCode).returns.toBeBoolean();
    expectTypeOf(settled).returns.toBeBoolean();
    expectTypeOf(waitsForCardholder).returns.toBeBoolean();
    expectTypeOf(final).returns.toBeBoolean();
  });
});
