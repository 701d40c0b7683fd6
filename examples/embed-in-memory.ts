import { createPaymentEngine } from 'paystate';
import { createMemoryCardVault, createMemoryPaymentRepository } from 'paystate/memory';
import { createCryptoIdGenerator, systemClock } from 'paystate/node';
import { createSandboxAcquirer, createSandboxThreeDSProvider } from 'paystate/sandbox';

const engine = createPaymentEngine({
  repository: createMemoryPaymentRepository(),
  cardVault: createMemoryCardVault(systemClock),
  acquirer: createSandboxAcquirer(),
  threeDS: createSandboxThreeDSProvider({ secret: 'acs-secret', challengeUrl: (id, tx) => `https://pay.example/3ds/${id}/${tx}` }),
  clock: systemClock,
  ids: createCryptoIdGenerator(),
  options: { hostedPageUrl: ({ id, token }) => `https://pay.example/pay/${id}?token=${token}` },
});

const shop = { id: 'client_shop', partnerId: 'partner_1', profileIds: ['profile_1'], pciDssCompliant: false };
const address = { thoroughfare: 'Damrak 1', locality: 'Amsterdam', postal_code: '1012 LG', country: 'NL' };
const ada = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', address };
const body = { method: 'creditcard', currency: 'EUR', amount: 1999, billing: ada, shipping: ada, session: { redirect_url: 'https://shop.example/return' } };

(await engine.createPayment({ client: shop, profileId: 'profile_1', body })).match(
  (payment) => console.log(payment.state, payment.next?.redirect), // processing https://pay.example/pay/payment_…
  (error) => console.error(error.code, error.message),
);
