export { createOperationMachine, paymentMachine, toMermaid } from '../src/machine/index.js';
export { OPERATION_KINDS as OPERATION_KINDS_FOR_DOCS } from '../src/domain/index.js';
