import { paymentsAndOutbox } from './0001-payments-and-outbox.js';
import { idempotencyKeys } from './0002-idempotency-keys.js';
import { credentials } from './0003-credentials.js';
import { outboxEventsAsJson } from './0004-outbox-events-as-json.js';
import { notFoundAnswers } from './0005-not-found-answers.js';
import { writeId } from './0006-write-id.js';
import { outboxRetries } from './0007-outbox-retries.js';
import { idempotencyReservations } from './0008-idempotency-reservations.js';
import { clientTokens } from './0009-client-tokens.js';
import { retiredTokens } from './0010-retired-tokens.js';
import { cardVault } from './0011-card-vault.js';
import { sandboxSimulator } from './0012-sandbox-simulator.js';
import { shortBins } from './0013-short-bins.js';
import { tokenIds } from './0014-token-ids.js';
import { moneyOperations } from './0015-money-operations.js';
import { sandboxOperations } from './0016-sandbox-operations.js';
import type { Migration } from './migration.js';
import { deepFreeze } from '../../../src/domain/immutable.js';

export type { Migration } from './migration.js';

/** Every migration this version of paystate ships, in version order. */
export const MIGRATIONS: readonly Migration[] = deepFreeze([
  paymentsAndOutbox,
  idempotencyKeys,
  credentials,
  outboxEventsAsJson,
  notFoundAnswers,
  writeId,
  outboxRetries,
  idempotencyReservations,
  clientTokens,
  retiredTokens,
  cardVault,
  sandboxSimulator,
  shortBins,
  tokenIds,
  moneyOperations,
  sandboxOperations,
]);
