/**
 * paystate with no HTTP at all: a worker takes "create payment" jobs from a queue (in memory
 * here; SQS, RabbitMQ or a database table in production), runs them through the engine, lets
 * the sweeper settle what is left open, and reports outcomes from the domain events.
 * Run it: `npx tsx examples/queue-worker.ts`. Guide: docs/guides/queue-worker.md.
 */
import { okAsync } from 'neverthrow';
import { createPaymentEngine, type Client, type DomainEvent, type EventSink } from 'paystate';
import { createMemoryCardVault, createMemoryPaymentRepository, createTestClock } from 'paystate/memory';
import { createCryptoIdGenerator } from 'paystate/node';
import { createSandboxAcquirer, createSandboxThreeDSProvider } from 'paystate/sandbox';

/** A job on the queue: one payment to create. */
interface CreatePaymentJob {
  readonly jobId: string;
  readonly profileId: string;
  readonly body: Record<string, unknown>;
}

/** The smallest queue that shows the shape: `receive` hands out a job, `ack` removes it. */
function createInMemoryQueue<T>(jobs: readonly T[]) {
  const pending = [...jobs];
  return {
    receive: async (): Promise<T | undefined> => pending[0],
    ack: async (): Promise<void> => {
      pending.shift();
    },
  };
}

// Outcomes arrive as domain events, delivered at least once: de-duplicate on the event id.
const delivered = new Set<string>();
const events: EventSink = {
  publish(event: DomainEvent) {
    if (!delivered.has(event.id)) {
      delivered.add(event.id);
      const reason = event.payment.failure_reason === undefined ? '' : ` (${event.payment.failure_reason})`;
      console.log(`  event ${event.type} ${event.payment.reference ?? event.paymentId}${reason}`);
    }
    return okAsync(undefined);
  },
};

// A test clock so the example can skip an hour; a real worker passes systemClock from paystate/node.
const clock = createTestClock();
const engine = createPaymentEngine({
  repository: createMemoryPaymentRepository(),
  cardVault: createMemoryCardVault(clock),
  acquirer: createSandboxAcquirer(),
  threeDS: createSandboxThreeDSProvider({
    secret: 'replace-with-a-secret',
    challengeUrl: (id, tx) => `https://shop.example/3ds/${id}/${tx}`,
  }),
  clock,
  ids: createCryptoIdGenerator(),
  events,
  options: { hostedPageUrl: ({ id, token }) => `https://shop.example/pay/${id}?token=${token}` },
});

// The worker is trusted code: it acts as a client of its own, not through a bearer token.
const worker: Client = {
  id: 'client_worker',
  partnerId: 'partner_shop',
  profileIds: ['profile_shop'],
  pciDssCompliant: true,
};

const contact = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  address: { thoroughfare: 'Damrak 1', locality: 'Amsterdam', postal_code: '1012 LG', country: 'NL' },
};
const user = {
  ip_address: '192.0.2.1',
  user_agent: 'Mozilla/5.0',
  accept: 'text/html',
  accept_encoding: 'gzip',
  accept_language: 'en',
  language: 'en',
  screen_width: 1280,
  screen_height: 800,
  java_enabled: false,
  javascript_enabled: true,
  color_depth: 24,
  timezone_offset: 0,
};
const order = (reference: string, number?: string): CreatePaymentJob => ({
  jobId: `job-${reference}`,
  profileId: 'profile_shop',
  body: {
    reference,
    method: 'creditcard',
    currency: 'EUR',
    amount: 2500,
    billing: contact,
    shipping: contact,
    session: { redirect_url: `https://shop.example/orders/${reference}` },
    ...(number !== undefined && {
      creditcard: { number, cvc: '123', expiration: '2030-12-01T00:00:00.000Z', holder_name: 'Ada Lovelace' },
      user,
    }),
  },
});

const queue = createInMemoryQueue<CreatePaymentJob>([
  order('order-1', '4242424242424242'), // approved
  order('order-2', '4000000000009995'), // declined: insufficient funds
  order('order-3', '4000000000000119'), // the acquirer's answer times out; an inquiry finds it approved
  order('order-4'), // hosted flow: a payment link for the customer, who never opens it
  { jobId: 'job-broken', profileId: 'profile_shop', body: { reference: 'order-5', amount: -1 } },
]);

/** The worker loop: one job at a time, acknowledged once the engine has answered. */
async function drain(): Promise<void> {
  for (let job = await queue.receive(); job !== undefined; job = await queue.receive()) {
    const result = await engine.createPayment({ client: worker, profileId: job.profileId, body: job.body });
    result.match(
      (payment) => {
        const extra = payment.failure_reason ?? payment.next?.redirect ?? '';
        console.log(`${job.jobId}: ${payment.state}${extra === '' ? '' : ` ${extra}`}`);
      },
      // A refused job is not retried: the same body would be refused again. Park it for a person.
      (error) => console.log(`${job.jobId}: refused, ${error.code} (${error.message})`),
    );
    await queue.ack();
  }
}

await drain();
console.log('delivering events');
await engine.deliverEvents();

// A real worker runs `engine.startBackgroundWorker()` beside the loop; here the sweeper is run
// by hand after moving the clock past the hosted page's hour.
clock.advance(61 * 60 * 1000);
const swept = await engine.sweep();
if (swept.isErr()) throw new Error(`sweep failed: ${swept.error.code}`);
console.log(`sweep: ${swept.value.reconciled} reconciled, ${swept.value.expired} expired`);
await engine.deliverEvents();
