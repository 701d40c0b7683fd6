export {
  createConsoleLogger,
  LOG_LEVELS,
  type ConsoleLoggerOptions,
  type LogFormat,
  type LogLevel,
  type LogStream,
} from './console-logger.js';
export { createCryptoIdGenerator } from './crypto-id-generator.js';
export { createHmacPageTokens } from './hmac-page-tokens.js';
export { createPinoLogger, type PinoLike } from './pino-logger.js';
export { redactCardNumbers, scrubLogFields } from './redact.js';
export { systemClock } from '../shared/index.js';
