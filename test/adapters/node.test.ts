import { afterEach, describe, expect, it } from 'vitest';
import { createTestClock } from '../../adapters/memory/index.js';
import {
  createConsoleLogger,
  createCryptoIdGenerator,
  redactCardNumbers,
  systemClock,
  type ConsoleLoggerOptions,
} from '../../adapters/node/index.js';
import { createNodeRequestListener } from '../../adapters/http/index.js';
import type { Logger } from '../../src/ports/logger.js';
import { closeAll, listenApp } from '../express/support/express-host.js';
import { parseResponses, rawExchange, rawGet } from '../express/support/raw-http.js';
import { call } from '../http/support/client.js';

describe('systemClock', () => {
  it('reads the wall clock', () => {
    const before = Date.now();
    const now = systemClock.now();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });
});

describe('createCryptoIdGenerator', () => {
  it('makes 32 lowercase hex ids, unique over 10k', () => {
    const ids = createCryptoIdGenerator();
    const seen = new Set<string>();
    for (let index = 0; index < 10_000; index++) {
      const id = ids.hex128();
      expect(id).toMatch(/^[0-9a-f]{32}$/);
      seen.add(id);
    }
    expect(seen.size).toBe(10_000);
  });

  it('makes URL-safe secrets of 192 bits, unique over 10k', () => {
    const ids = createCryptoIdGenerator();
    const seen = new Set<string>();
    for (let index = 0; index < 10_000; index++) {
      const secret = ids.secret();
      expect(secret).toMatch(/^[A-Za-z0-9_-]{32}$/);
      seen.add(secret);
    }
    expect(seen.size).toBe(10_000);
  });
});

describe('createConsoleLogger', () => {
  const capture = (options: Omit<ConsoleLoggerOptions, 'stream'> = {}) => {
    const lines: string[] = [];
    const logger = createConsoleLogger({
      clock: createTestClock(),
      ...options,
      stream: { write: (chunk) => lines.push(chunk) },
    });
    return { logger, lines };
  };

  it('writes one readable line per call', () => {
    const { logger, lines } = capture();
    logger.info(
      { paymentId: 'payment_0123456789abcdef0123456789abcdef', amount: 1000, state: 'processing' },
      'payment created',
    );
    logger.warn({ note: 'two words', nested: { ok: true } }, 'careful');
    expect(lines).toEqual([
      '2026-01-15T12:00:00.000Z INFO  payment created paymentId=payment_0123456789abcdef0123456789abcdef amount=1000 state=processing\n',
      '2026-01-15T12:00:00.000Z WARN  careful note="two words" nested={"ok":true}\n',
    ]);
  });

  it('filters by level', () => {
    const { logger, lines } = capture({ level: 'warn' });
    logger.debug({}, 'd');
    logger.info({}, 'i');
    logger.warn({}, 'w');
    logger.error({}, 'e');
    expect(lines.map((line) => line.split(' ')[1])).toEqual(['WARN', 'ERROR']);

    const silent = capture({ level: 'silent' });
    silent.logger.error({}, 'e');
    expect(silent.lines).toEqual([]);

    const all = capture({ level: 'debug' });
    all.logger.debug({}, 'd');
    expect(all.lines).toHaveLength(1);
  });

  it('refuses a level it does not know instead of writing everything (another logger’s "verbose")', () => {
    for (const level of ['verbose', 'trace', 'INFO', '']) {
      expect(() => capture({ level: level as 'info' })).toThrow(
        new RangeError(`level needs one of debug, info, warn, error, silent (got ${level})`),
      );
    }
  });

  it('redacts card numbers in messages and fields, plain or grouped', () => {
    const { logger, lines } = capture();
    logger.error(
      {
        input: 'number 4242424242424242 given',
        nested: { deep: ['5555 5555 5555 4444'] },
        amex: 378282246310005,
        dashed: '4000-0000-0000-3220',
      },
      'card 4242424242424242 failed; retry 4000000000003055',
    );
    const [line] = lines;
    expect(line).not.toMatch(/\d{12}/);
    expect(line).not.toContain('5555 5555');
    expect(line).not.toContain('4000-0000');
    expect(line).toContain('card [redacted] failed; retry [redacted]');
    expect(line).toContain('amex=[redacted]');
  });

  it('redacts values under card keys whatever they hold', () => {
    const { logger, lines } = capture();
    logger.info(
      {
        number: '4242',
        cvc: '123',
        card: { number: '42', cvv: 737, pan: 'x', card_number: 'y', cardNumber: 'z', holderName: 'A. Lovelace' },
        PAN: 'upper',
        list: [{ 'card-number': 'q' }],
      },
      'submitted',
    );
    const [line] = lines;
    expect(line).toContain('number=[redacted] cvc=[redacted]');
    expect(line).toContain(
      'card={"number":"[redacted]","cvv":"[redacted]","pan":"[redacted]","card_number":"[redacted]","cardNumber":"[redacted]","holderName":"A. Lovelace"}',
    );
    expect(line).toContain('PAN=[redacted]');
    expect(line).toContain('list=[{"card-number":"[redacted]"}]');
    expect(line).not.toMatch(/"123"|737|"4242"/);
  });

  it('leaves ids, dates and short numbers alone', () => {
    expect(redactCardNumbers('payment_00000000000000000000000000000001')).toBe(
      'payment_00000000000000000000000000000001',
    );
    expect(redactCardNumbers('evt_1234567890123456789012345678ab')).toBe('evt_1234567890123456789012345678ab');
    expect(redactCardNumbers('at 2026-01-15T12:00:00.000Z, amount 99999999999')).toBe(
      'at 2026-01-15T12:00:00.000Z, amount 99999999999',
    );
    expect(redactCardNumbers('4242424242424242 12345')).toBe('[redacted] 12345');
  });

  it('keeps each call on one line and survives awkward values', () => {
    const { logger, lines } = capture();
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic['self'] = cyclic;
    logger.error(
      {
        error: new Error('boom 4242424242424242'),
        cyclic,
        big: 10n,
        missing: undefined,
        when: new Date(0),
        fn: () => 1,
      },
      'first line\nINFO forged line',
    );
    expect(lines).toHaveLength(1);
    const [line] = lines as [string];
    expect(line.endsWith('\n')).toBe(true);
    expect(line.slice(0, -1)).not.toContain('\n');
    expect(line).toContain('first line\\nINFO forged line');
    expect(line).toContain('error="Error: boom [redacted]"');
    expect(line).toContain('cyclic={"name":"loop","self":"[circular]"}');
    expect(line).toContain('big=10 missing=null when=1970-01-01T00:00:00.000Z fn=[function]');
  });

  it('never throws, even when the stream does', () => {
    const logger = createConsoleLogger({
      stream: {
        write: () => {
          throw new Error('closed');
        },
      },
    });
    expect(() => logger.error({}, 'lost')).not.toThrow();
  });
});

/**
 * A response fetch accepts and node refuses to write: `x-odd` holds a control character, which
 * `Headers` lets through and `res.setHeader` refuses (`ERR_INVALID_CHAR`). Node iterates the
 * headers sorted, so `content-length` and `x-note` are set on the node response before it refuses.
 */
const refusedResponse = () =>
  new Response('ok', {
    status: 201,
    statusText: 'Made',
    headers: { 'content-length': '2', 'set-cookie': 'sid=1', 'x-note': 'fine', 'x-odd': 'a\u0001b' },
  });

function recordingLogger() {
  const errors: { fields: Record<string, unknown>; message: string }[] = [];
  const logger: Logger = {
    debug: () => undefined,
    info: () => undefined,
    warn: () => undefined,
    error: (fields, message) => errors.push({ fields, message }),
  };
  return { logger, errors };
}

describe('createNodeRequestListener', () => {
  afterEach(closeAll);

  it('answers a handler that rejects with a logged 500 problem under problemTypeBase', async () => {
    const { logger, errors } = recordingLogger();
    const listener = createNodeRequestListener(() => Promise.reject(new Error('boom')), {
      logger,
      problemTypeBase: 'urn:test:',
    });
    const answer = await call(`${await listenApp(listener)}/`);
    expect(answer.status).toBe(500);
    expect(answer.headers['content-type']).toBe('application/problem+json');
    expect(answer.json).toMatchObject({ type: 'urn:test:internal_error', code: 'internal_error', status: 500 });
    expect(errors.map((line) => line.message)).toEqual(['fetch handler failed']);
  });

  it('answers a response node refuses to write with a 500 problem framed by its own length', async () => {
    const { logger, errors } = recordingLogger();
    const listener = createNodeRequestListener(async () => refusedResponse(), { logger });
    const responses = parseResponses(
      await rawExchange(await listenApp(listener), [rawGet('/a'), rawGet('/b', { close: true })]),
    );
    expect(responses.map((response) => [response.status, response.headers['set-cookie']])).toEqual([
      [500, undefined],
      [500, undefined],
    ]);
    expect(errors.map((line) => line.message)).toEqual([
      'could not write the response',
      'could not write the response',
    ]);
  });
});
