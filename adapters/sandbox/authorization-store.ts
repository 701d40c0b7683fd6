import { ok } from 'neverthrow';
import type { CaptureMethod } from '../../src/domain/capture-method.js';
import type { CardScheme } from '../../src/domain/card.js';
import type { ThreeDSOutcome } from '../../src/domain/three-ds.js';
import type { AuthorizationOutcome } from '../../src/ports/acquirer.js';
import type { PortFailure, PortResult } from '../../src/ports/port-result.js';
import type { SandboxOperationsBehaviour } from './test-cards.js';

/** An authorization the simulated acquirer recorded: BIN as kept (`binOf`), last four and scheme, never the number or CVC. */
export interface SandboxAuthorization {
  readonly paymentId: string;
  readonly profileId: string;
  readonly amount: number;
  readonly currency: string;
  /** `manual`: only reserved, captures follow. Absent (records made before captures existed): `automatic`. */
  readonly captureMethod?: CaptureMethod;
  readonly card: { readonly scheme: CardScheme; readonly bin: string; readonly last4: string };
  readonly threeDS: ThreeDSOutcome | null;
  /**
   * What of the 3DS authentication data arrived (docs/ports.md): whether an
   * authentication value came (it is never kept), the DS transaction id and protocol version.
   */
  readonly authentication: {
    readonly authenticationValueReceived: boolean;
    readonly dsTransactionId: string | null;
    readonly protocolVersion: string | null;
  } | null;
  /** How the card's captures and refunds go (its test card's `operations`); absent: they succeed. */
  readonly operations?: SandboxOperationsBehaviour;
  /** What the acquirer decided, which `inquire` reports (even when the first answer was `unknown`). */
  readonly outcome: AuthorizationOutcome;
}

/** What `SandboxAuthorizationStore.keep` answers. */
export interface KeptAuthorization {
  readonly record: SandboxAuthorization;
  readonly created: boolean;
}

/**
 * Where the simulated acquirer keeps what it decided, so that an inquiry finds it. In memory by
 * default; `createPostgresSandboxStores` (`paystate/postgres`) keeps it where every instance reads it.
 */
export interface SandboxAuthorizationStore {
  /**
   * Keeps `record` unless one is kept for its payment already; answers the one kept (the first
   * wins) and whether it is this one (`created`).
   */
  keep(record: SandboxAuthorization): PortResult<KeptAuthorization, PortFailure>;
  /** The record of a payment, or null. */
  find(paymentId: string): PortResult<SandboxAuthorization | null, PortFailure>;
}

/** The in-memory `SandboxAuthorizationStore`: one process, answered at once. */
export function createMemorySandboxAuthorizationStore(): SandboxAuthorizationStore {
  const records = new Map<string, SandboxAuthorization>();
  return {
    keep(record) {
      const kept = records.get(record.paymentId);
      if (kept !== undefined) return ok({ record: kept, created: false });
      records.set(record.paymentId, record);
      return ok({ record, created: true });
    },
    find: (paymentId) => ok(records.get(paymentId) ?? null),
  };
}
