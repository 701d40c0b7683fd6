export {
  createChallengeResponse,
  verifyChallengeResponse,
  type ChallengeDecision,
  type ChallengeResponse,
} from './challenge-response.js';
export { eciFor, type EciTransStatus } from './eci.js';
export {
  createSandboxAcquirer,
  type SandboxAcquirer,
  type SandboxAcquirerFault,
  type SandboxAcquirerOptions,
} from './sandbox-acquirer.js';
export {
  createMemorySandboxAuthorizationStore,
  type KeptAuthorization,
  type SandboxAuthorization,
  type SandboxAuthorizationStore,
} from './authorization-store.js';
export {
  decideSandboxOperation,
  sandboxBalance,
  type SandboxBalance,
  type SandboxOperationRequest,
} from './operation-decision.js';
export {
  createSandboxOperations,
  type SandboxOperationFault,
  type SandboxOperationMethods,
  type SandboxOperations,
  type SandboxOperationsDependencies,
} from './sandbox-operations.js';
export {
  createMemorySandboxOperationStore,
  type KeptOperation,
  type SandboxOperation,
  type SandboxOperationDecision,
  type SandboxOperationKind,
  type SandboxOperationStore,
} from './operation-store.js';
export {
  createMemorySandboxChallengeStore,
  type SandboxChallenge,
  type SandboxChallengeAnswer,
  type SandboxChallengeStore,
} from './challenge-store.js';
export { sandboxFees } from './sandbox-fees.js';
export {
  createSandboxThreeDSProvider,
  type SandboxThreeDSCall,
  type SandboxThreeDSOptions,
  type SandboxThreeDSProvider,
} from './sandbox-three-ds.js';
export {
  SANDBOX_DEFAULT_CARD_BEHAVIOUR,
  SANDBOX_MERCHANT_COUNTRY,
  SANDBOX_TEST_CARDS,
  findSandboxTestCard,
  sandboxCardBehaviour,
  type SandboxAuthorizationBehaviour,
  type SandboxCardBehaviour,
  type SandboxCardRegion,
  type SandboxCardType,
  type SandboxExpectedOutcome,
  type SandboxOperationBehaviour,
  type SandboxOperationsBehaviour,
  type SandboxTestCard,
  type SandboxThreeDSBehaviour,
} from './test-cards.js';
