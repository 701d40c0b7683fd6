import { describe, expect, it } from 'vitest';
import { compliantClient, makeEngineHarness } from '../support/engine-harness.js';
import { cardSubmission, hostedRequest } from '../support/requests.js';

describe('logging', () => {
  it('logs every command, port call and state change, with the payment id and no card data', async () => {
    const h = makeEngineHarness();
    const created = (
      await h.engine.createPayment({ client: compliantClient, profileId: 'profile_0001', body: hostedRequest() })
    )._unsafeUnwrap();
    await h.engine.submitCard({
      paymentId: created.id,
      token: h.hostedToken(created),
      body: cardSubmission('4242424242424242'),
    });

    // One line per write that changed the state, naming the states passed through on the way.
    const changes = h.logs
      .filter((log) => log.message === 'payment state changed')
      .map((log) => [log.fields['from'], log.fields['to'], log.fields['via']]);
    expect(changes).toEqual([
      [null, 'awaiting_card_data', undefined],
      ['awaiting_card_data', 'authorizing', ['authenticating']],
      ['authorizing', 'succeeded', undefined],
    ]);
    const ports = h.logs
      .filter((log) => log.message === 'port call')
      .map((log) => `${log.fields['port']} ${log.fields['outcome']}`);
    expect(ports).toEqual([
      'repository.insert ok',
      'repository.load ok',
      'threeDS.authenticate ok',
      'repository.update ok',
      'acquirer.authorize ok',
      'repository.update ok',
    ]);
    for (const log of h.logs.filter((l) => l.message === 'port call')) {
      expect(log.level).toBe('debug');
      expect(typeof log.fields['ms']).toBe('number');
      expect(log.fields['paymentId']).toBe(created.id);
    }
    const commands = h.logs.filter((log) => log.message === 'command done').map((log) => log.fields['command']);
    expect(commands).toEqual(['createPayment', 'submitCard']);
    expect(JSON.stringify(h.logs)).not.toContain('4242424242424242');
  });

  it('logs a client-sent id only when it cannot hold a card number (found by a reviewing helper)', async () => {
    const h = makeEngineHarness();
    const hostile = ['4242.4242.4242.4242', '4242\u20134242\u20134242\u20134242', 'x'.repeat(3000)];
    for (const id of hostile) {
      expect((await h.engine.getPayment({ profileId: 'profile_0001', paymentId: id }))._unsafeUnwrapErr().code).toBe(
        'not_found',
      );
      await h.engine.submitCard({ paymentId: id, token: 't', body: cardSubmission('4242424242424242') });
      await h.engine.createPayment({ client: compliantClient, profileId: id, body: hostedRequest() });
      await h.engine.listPayments({ profileId: id, limit: 0 });
    }
    const failed = h.logs.filter((log) => log.message === 'command failed');
    expect(failed.length).toBe(hostile.length * 4);
    for (const log of failed) {
      expect(log.fields['paymentId'] ?? log.fields['profileId']).toBe('[redacted]');
    }
    const text = JSON.stringify(h.logs);
    expect(text).not.toMatch(/4242/);
    expect(text).not.toContain('x'.repeat(65));

    // Well-formed and ordinary ids are logged as they are.
    await h.engine.getPayment({
      profileId: 'profile_0001',
      paymentId: `payment_${'0'.repeat(32)}`,
    });
    await h.engine.getPayment({ profileId: 'profile_0001', paymentId: 'order-1234' });
    expect(h.logs.slice(-2).map((log) => log.fields['paymentId'])).toEqual([`payment_${'0'.repeat(32)}`, 'order-1234']);
  });

  it('logs no state change for a write that loses or fails', async () => {
    const h = makeEngineHarness();
    h.repository.injectFailure('insert', { code: 'unavailable', message: 'down', retryable: false });
    const failed = await h.engine.createPayment({
      client: compliantClient,
      profileId: 'profile_0001',
      body: hostedRequest(),
    });
    expect(failed._unsafeUnwrapErr().code).toBe('unavailable');
    const created = (
      await h.engine.createPayment({ client: compliantClient, profileId: 'profile_0001', body: hostedRequest() })
    )._unsafeUnwrap();
    h.repository.injectFailure('update', { code: 'conflict', message: 'another writer won', retryable: false });
    await h.engine.submitCard({
      paymentId: created.id,
      token: h.hostedToken(created),
      body: cardSubmission('4242424242424242'),
    });
    const changes = h.logs
      .filter((log) => log.message === 'payment state changed')
      .map((log) => [log.fields['paymentId'], log.fields['from'], log.fields['to']]);
    expect(changes).toEqual([[created.id, null, 'awaiting_card_data']]);
  });
});
