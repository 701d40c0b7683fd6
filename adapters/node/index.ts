export {
  createConsoleLogger,
  LOG_LEVELS,
  type ConsoleLoggerOptions,
  type LogLevel,
  type LogStream,
} from './console-logger.js';
export { createCryptoIdGenerator } from './crypto-id-generator.js';
export { createHmacPageTokens } from './hmac-page-tokens.js';
export { redactCardNumbers } from './redact.js';
export { systemClock } from '../shared/index.js';
