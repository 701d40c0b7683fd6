import { err } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { describeDefect } from '../../src/engine/describe-defect.js';
import { compliantClient, makeEngineHarness } from '../support/engine-harness.js';
import { directRequest } from '../support/requests.js';

const PAN = '4242424242424242';

describe('describeDefect keeps card data out of the log (found by a reviewing helper)', () => {
  it('a message of several lines, one starting with "at ", does not pass for a stack frame', () => {
    const described = describeDefect(new Error(`card refused\nat ${PAN} cvc 937\n  at 4242 4242 4242 4242`));
    expect(described).not.toMatch(/4242.?4242/);
    expect(described).not.toContain('937');
    expect(described.split('\n')[0]).toBe('Error: card refused');
    // The real frames are still there, line numbers and all.
    expect(described).toMatch(/\n {4}at .*describe-defect\.test\.ts:\d+:\d+/);
  });

  it('the name of the error is masked as its message is', () => {
    const error = new Error('declined');
    error.name = `DeclinedError ${PAN}`;
    const described = describeDefect(error);
    expect(described).not.toContain(PAN);
    expect(described.split('\n')[0]).toBe('DeclinedError [digits]: declined');
  });

  it('a stack written before the message was changed has its frame lines masked', () => {
    const error = new Error(`refused\nat ${PAN}`);
    void error.stack;
    error.message = 'refused';
    expect(describeDefect(error)).not.toContain(PAN);
  });

  it('an acquirer that throws such an error: the engine defect logged carries no card data', async () => {
    const h = makeEngineHarness();
    h.acquirer.authorize = (request) => {
      const error = new Error(`authorize failed\n    at pan ${request.card.number} cvc ${request.card.cvc}`);
      error.name = `AcquirerError(${request.card.number})`;
      throw error;
    };
    const result = await h.engine.createPayment({
      client: compliantClient,
      profileId: 'profile_0001',
      body: directRequest(PAN),
    });
    expect(result._unsafeUnwrapErr().code).toBe('internal_error');
    const logged = JSON.stringify(h.logs);
    expect(logged).toContain('engine defect');
    expect(logged).not.toContain(PAN);
    expect(logged).not.toMatch(/cvc \d/);
  });

  it('a 3DS provider and a card vault that throw so: nothing of the card reaches the log', async () => {
    const h = makeEngineHarness();
    h.threeDS.authenticate = (request) => {
      throw new Error(`lookup failed\nat ${request.card.number}`);
    };
    await h.engine.createPayment({ client: compliantClient, profileId: 'profile_0001', body: directRequest(PAN) });
    const vaulted = makeEngineHarness();
    vaulted.cardVault.put = (_id, card) => {
      throw new Error(`vault refused\nat ${card.number} ${card.cvc}`);
    };
    vaulted.acquirer.inquire = () => err({ code: 'unavailable', message: 'x', retryable: false });
    await vaulted.engine.createPayment({
      client: compliantClient,
      profileId: 'profile_0001',
      body: directRequest('4000000000003220'),
    });
    for (const logs of [h.logs, vaulted.logs]) {
      const logged = JSON.stringify(logs);
      expect(logged).toContain('engine defect');
      expect(logged).not.toMatch(/4242424242424242|4000000000003220/);
    }
  });
});
