import { createSandboxAcquirer } from '../../adapters/sandbox/index.js';
import { createBankAcquirer } from '../../examples/custom-acquirer/bank-acquirer.js';
import { createFakeBank } from '../../examples/custom-acquirer/fake-bank.js';
import { acquirerContract, contractCard } from './acquirer.contract.js';

// The acquirer contract, run unchanged against every acquirer adapter paystate has.

acquirerContract('sandbox', () => {
  const acquirer = createSandboxAcquirer();
  return {
    acquirer,
    approved: { card: contractCard('4242424242424242'), amount: 1000 },
    declined: { card: contractCard('4000000000009995'), amount: 1000, reason: 'insufficient_funds' },
    authorizations: (paymentId) => acquirer.authorizations().filter((a) => a.paymentId === paymentId).length,
    kept: () => acquirer.authorizations(),
    faults: {
      unreachable: () => acquirer.failNextAuthorize('unavailable'),
      answerLost: () => acquirer.failNextAuthorize('answer_lost'),
    },
  };
});

acquirerContract('examples/custom-acquirer (a bank SDK)', () => {
  const bank = createFakeBank();
  return {
    acquirer: createBankAcquirer(bank),
    approved: { card: contractCard('5555555555554444'), amount: 1000 },
    declined: { card: contractCard('5555555555554444'), amount: 1051, reason: 'insufficient_funds' },
    authorizations: (paymentId) => bank.ledger().filter((entry) => entry.merchantReference === paymentId).length,
    kept: () => bank.ledger(),
    faults: { unreachable: () => bank.failNextCall(), answerLost: () => bank.loseNextReply() },
  };
});
