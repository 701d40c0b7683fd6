/**
 * A host that brings its own acquirer: the engine authorizes through `createBankAcquirer`, an
 * adapter on a (fake) bank SDK, which passes the acquirer contract suite
 * (test/contracts/acquirer.contract.ts). Run it: `npx tsx examples/custom-acquirer.ts`.
 * Guide: docs/guides/acquirer-adapter.md.
 */
import { createPaymentEngine, type Client } from 'paystate';
import { createMemoryCardVault, createMemoryPaymentRepository, createTestClock } from 'paystate/memory';
import { createCryptoIdGenerator } from 'paystate/node';
import { createSandboxThreeDSProvider } from 'paystate/sandbox';
import { createBankAcquirer } from './custom-acquirer/bank-acquirer.js';
import { createFakeBank } from './custom-acquirer/fake-bank.js';

const bank = createFakeBank();
// A test clock, so that the sweeper's later inquiry can happen now; production passes systemClock.
const clock = createTestClock();
const engine = createPaymentEngine({
  repository: createMemoryPaymentRepository(),
  cardVault: createMemoryCardVault(clock),
  acquirer: createBankAcquirer(bank),
  threeDS: createSandboxThreeDSProvider({
    secret: 'replace-with-a-secret',
    challengeUrl: (id, tx) => `https://shop.example/3ds/${id}/${tx}`,
  }),
  clock,
  ids: createCryptoIdGenerator(),
});

const backend: Client = {
  id: 'client_backend',
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
const browser = {
  ip_address: '192.0.2.1',
  user_agent: 'Mozilla/5.0',
  accept: 'text/html',
  accept_encoding: 'gzip',
  accept_language: 'nl-NL',
  language: 'nl-NL',
  screen_width: 1280,
  screen_height: 800,
  java_enabled: false,
  javascript_enabled: true,
  color_depth: 24,
  timezone_offset: -60,
};

/** A direct payment with a card that needs no 3-D Secure in the sandbox; the bank decides by amount. */
async function pay(amount: number) {
  const result = await engine.createPayment({
    client: backend,
    profileId: 'profile_shop',
    body: {
      method: 'creditcard',
      currency: 'EUR',
      amount,
      billing: contact,
      shipping: contact,
      session: { redirect_url: 'https://shop.example/return' },
      creditcard: {
        number: '5555555555554444',
        cvc: '123',
        expiration: '2030-12-01T00:00:00.000Z',
        holder_name: 'Ada Lovelace',
      },
      user: browser,
    },
  });
  if (result.isErr()) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}

const approved = await pay(1000);
console.log(`${amountText(1000)}: ${approved.state}, rrn ${approved.creditcard?.rrn ?? '-'}`);
const refused = await pay(1051);
console.log(`${amountText(1051)}: ${refused.state}, ${refused.failure_reason ?? '-'}`);
const lost = await pay(1096);
console.log(`${amountText(1096)}: ${lost.state} (the bank's reply was lost; the sweeper will ask the bank)`);

clock.advance(3 * 60 * 1000); // later, the background worker's sweep runs
const report = await engine.sweep();
console.log(`sweep: ${report.isOk() ? `${report.value.reconciled} reconciled` : report.error.code}`);
const after = await engine.getPayment({ paymentId: lost.id, profileId: 'profile_shop' });
console.log(`${amountText(1096)}: ${after.isOk() ? after.value.state : after.error.code} after the inquiry`);

const ledger = bank.ledger();
console.log(
  `the bank holds ${ledger.length} authorizations, cards masked: ${ledger.map((entry) => entry.maskedPan).join(', ')}`,
);

function amountText(minor: number): string {
  return `EUR ${(minor / 100).toFixed(2)}`;
}
