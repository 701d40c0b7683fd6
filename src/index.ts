/**
 * paystate: an embeddable payment engine for card-not-present card payments.
 *
 * The core: the lifecycle machine, request and record schemas, the engine and its ports.
 * Adapters live in their own entry points (`paystate/memory`, `paystate/sandbox`, `paystate/node`, …).
 */
export * from './domain/index.js';
export * from './engine/index.js';
export * from './errors/index.js';
export * from './machine/index.js';
export * from './ports/index.js';
export * from './schemas/index.js';
