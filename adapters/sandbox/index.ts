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
  type SandboxAuthorization,
} from './sandbox-acquirer.js';
export { sandboxFees } from './sandbox-fees.js';
export {
  createSandboxThreeDSProvider,
  type SandboxChallenge,
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
  type SandboxTestCard,
  type SandboxThreeDSBehaviour,
} from './test-cards.js';
