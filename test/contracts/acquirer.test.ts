import { createSandboxAcquirer } from '../../adapters/sandbox/index.js';
import { createBankAcquirer } from '../../examples/custom-acquirer/bank-acquirer.js';
import { createFakeBank } from '../../examples/custom-acquirer/fake-bank.js';
import { acquirerOperationsContract } from './acquirer-operations.contract.js';
import { acquirerContract, contractCard } from './acquirer.contract.js';
import { paymentId } from './fixtures.js';

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

// The money-operations part, against the sandbox and the bank SDK of examples/custom-acquirer.
acquirerOperationsContract('sandbox', () => {
  const acquirer = createSandboxAcquirer();
  return {
    acquirer,
    authorize: async (amount) => {
      const id = paymentId();
      const answer = await acquirer.authorize({
        paymentId: id,
        profileId: 'profile_contract',
        amount,
        currency: 'EUR',
        card: contractCard('4242424242424242'),
        threeDS: null,
        authentication: null,
        captureMethod: 'manual',
      });
      const outcome = answer._unsafeUnwrap();
      if (outcome.kind !== 'approved') throw new Error('the sandbox must approve 4242424242424242');
      return { paymentId: id, rrn: outcome.rrn };
    },
  };
});

acquirerOperationsContract('examples/custom-acquirer (a bank SDK)', () => {
  const acquirer = createBankAcquirer(createFakeBank());
  return {
    acquirer,
    authorize: async (amount) => {
      const id = paymentId();
      const answer = await acquirer.authorize({
        paymentId: id,
        profileId: 'profile_contract',
        amount,
        currency: 'EUR',
        card: contractCard('5555555555554444'),
        threeDS: null,
        authentication: null,
        captureMethod: 'manual',
      });
      const outcome = answer._unsafeUnwrap();
      if (outcome.kind !== 'approved') throw new Error('the bank must approve 5555555555554444');
      return { paymentId: id, rrn: outcome.rrn };
    },
  };
});
