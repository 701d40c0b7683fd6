import { describe, expect, it } from 'vitest';
import { compliantClient, makeEngineHarness, type EngineHarness } from '../support/engine-harness.js';
import { cardSubmission, directRequest, hostedRequest } from '../support/requests.js';

type Line = EngineHarness['logs'][number];

const PROFILE = 'profile_0001';
const CHALLENGE_CARD = '4000000000003220';

/** Every command of the engine once (successes, a failure, a defect), each with the `requestId` `idOf` gives it. */
const COMMANDS = [
  'createPayment (hosted)',
  'submitCard',
  'createPayment (direct, challenge)',
  'completeChallenge',
  'getPayment',
  'listPayments',
  'listPayments (failed)',
  'getPayment (defect)',
] as const;
type CommandName = (typeof COMMANDS)[number];

/**
 * Runs `COMMANDS` in order on `h`, each given `requestId: idOf(name)` unless that is undefined,
 * and returns the lines each command wrote, by name.
 */
async function runEveryCommand(
  h: EngineHarness,
  idOf: (name: CommandName) => unknown,
): Promise<Record<CommandName, Line[]>> {
  const slices = {} as Record<CommandName, Line[]>;
  const withId = (name: CommandName) => {
    const requestId = idOf(name);
    // Plain JavaScript may hand anything over: the cast lets a test give a number.
    return requestId === undefined ? {} : { requestId: requestId as string };
  };
  const run = async <T>(name: CommandName, command: () => PromiseLike<T>): Promise<T> => {
    const from = h.logs.length;
    const result = await command();
    slices[name] = h.logs.slice(from);
    return result;
  };
  const client = compliantClient;
  const hosted = (
    await run('createPayment (hosted)', () =>
      h.engine.createPayment({
        client,
        profileId: PROFILE,
        body: hostedRequest(),
        ...withId('createPayment (hosted)'),
      }),
    )
  )._unsafeUnwrap();
  await run('submitCard', () =>
    h.engine.submitCard({
      paymentId: hosted.id,
      token: h.hostedToken(hosted),
      body: cardSubmission('4242424242424242'),
      ...withId('submitCard'),
    }),
  );
  const challenged = (
    await run('createPayment (direct, challenge)', () =>
      h.engine.createPayment({
        client,
        profileId: PROFILE,
        body: directRequest(CHALLENGE_CARD),
        ...withId('createPayment (direct, challenge)'),
      }),
    )
  )._unsafeUnwrap();
  const answer = await h.challengeAnswer(challenged.id, 'authorise');
  await run('completeChallenge', () => h.engine.completeChallenge({ ...answer, ...withId('completeChallenge') }));
  await run('getPayment', () =>
    h.engine.getPayment({ paymentId: hosted.id, profileId: PROFILE, ...withId('getPayment') }),
  );
  await run('listPayments', () => h.engine.listPayments({ profileId: PROFILE, ...withId('listPayments') }));
  await run('listPayments (failed)', () =>
    h.engine.listPayments({ profileId: PROFILE, limit: 0, ...withId('listPayments (failed)') }),
  );
  const load = h.repository.load;
  h.repository.load = () => {
    throw new Error('repository adapter bug');
  };
  await run('getPayment (defect)', () =>
    h.engine.getPayment({ paymentId: hosted.id, profileId: PROFILE, ...withId('getPayment (defect)') }),
  );
  h.repository.load = load;
  return slices;
}

const idFor = (name: CommandName) => `req_${name.replace(/\W+/g, '-')}`;

describe('requestId on engine commands', () => {
  it('is on every line a command writes: its port calls, state changes, ending, failure and defect', async () => {
    const h = makeEngineHarness();
    const slices = await runEveryCommand(h, idFor);
    for (const name of COMMANDS) {
      const lines = slices[name];
      expect(lines.length, name).toBeGreaterThan(0);
      expect(
        lines.filter((line) => line.fields['requestId'] !== idFor(name)),
        name,
      ).toEqual([]);
    }
    const messages = new Set(COMMANDS.flatMap((name) => slices[name].map((line) => line.message)));
    for (const message of ['port call', 'payment state changed', 'command done', 'command failed', 'engine defect']) {
      expect(messages, message).toContain(message);
    }
  });

  it('changes nothing else: without it the lines are as before, with it the same lines plus the id', async () => {
    const without = await runEveryCommand(makeEngineHarness(), () => undefined);
    const withIds = await runEveryCommand(makeEngineHarness(), idFor);
    for (const name of COMMANDS) {
      expect(
        without[name].filter((line) => 'requestId' in line.fields),
        name,
      ).toEqual([]);
      const stripped = withIds[name].map(({ fields: { requestId: _id, ...fields }, ...line }) => ({ ...line, fields }));
      expect(stripped, name).toEqual(without[name]);
    }
  });

  it('is not part of the payment: not in records, events or answers', async () => {
    const h = makeEngineHarness();
    const marker = 'req_marker_not_payment_data';
    const answers: unknown[] = [];
    const created = await h.engine.createPayment({
      client: compliantClient,
      profileId: PROFILE,
      body: directRequest('4242424242424242'),
      requestId: marker,
    });
    answers.push(created._unsafeUnwrap());
    answers.push(
      (
        await h.engine.getPayment({ paymentId: created._unsafeUnwrap().id, profileId: PROFILE, requestId: marker })
      )._unsafeUnwrap(),
    );
    answers.push((await h.engine.listPayments({ profileId: PROFILE, requestId: marker }))._unsafeUnwrap());
    expect((await h.engine.deliverEvents())._unsafeUnwrap()).toBeGreaterThan(0);
    expect(JSON.stringify(h.logs)).toContain(marker);
    for (const [what, value] of Object.entries({
      records: h.repository.snapshot(),
      events: h.events.events(),
      answers,
    })) {
      expect(JSON.stringify(value), what).not.toContain(marker);
      expect(JSON.stringify(value), what).not.toContain('requestId');
    }
  });

  it("shows a host's id only when it is at most 200 characters and holds no card number", async () => {
    const h = makeEngineHarness();
    const cases: readonly (readonly [unknown, string])[] = [
      ['req_0123456789abcdef0123456789abcdef', 'req_0123456789abcdef0123456789abcdef'],
      ['gateway-7f3a:1', 'gateway-7f3a:1'],
      ['x'.repeat(200), 'x'.repeat(200)],
      ['x'.repeat(201), '[redacted]'],
      ['4242424242424242', '[redacted]'],
      ['id-4242-4242-4242-4242', '[redacted]'],
      [
        'id\uff14\uff12\uff14\uff12\uff14\uff12\uff14\uff12\uff14\uff12\uff14\uff12\uff14\uff12\uff14\uff12',
        '[redacted]',
      ],
      [42, '[number]'],
    ];
    for (const [requestId, shown] of cases) {
      const from = h.logs.length;
      await h.engine.listPayments({ profileId: PROFILE, requestId: requestId as string });
      const lines = h.logs.slice(from);
      expect(lines.length).toBeGreaterThan(0);
      expect(lines.map((line) => line.fields['requestId'])).toEqual(lines.map(() => shown));
    }
    expect(JSON.stringify(h.logs)).not.toMatch(/4242/);
    expect(JSON.stringify(h.logs)).not.toContain('x'.repeat(201));
  });

  it('is read from the command object safely: a command without its object is still a defect, not a throw', async () => {
    const h = makeEngineHarness();
    const missing = undefined as unknown as Parameters<typeof h.engine.getPayment>[0];
    const answer = await h.engine.getPayment(missing);
    expect(answer._unsafeUnwrapErr().code).toBe('internal_error');
    const getter = {
      profileId: PROFILE,
      get requestId(): string {
        throw new Error('a getter that throws');
      },
    };
    expect((await h.engine.listPayments(getter))._unsafeUnwrapErr().code).toBe('internal_error');
    expect(h.logs.filter((line) => line.message === 'engine defect')).toHaveLength(2);
  });
});
