import { describe, expect, it } from 'vitest';
import { contactInOrder } from '../../src/domain/index.js';

describe('contactInOrder', () => {
  it('writes keys in one order (required first, then the optional ones present), whatever order they came in', () => {
    // As jsonb gives it back: keys sorted by length.
    const stored = {
      email: 'ada@example.com',
      phone: '+31201234567',
      address: {
        state: 'NH',
        country: 'NL',
        premise: '12A',
        locality: 'Amsterdam',
        postal_code: '1015 CJ',
        thoroughfare: 'K 1',
      },
      last_name: 'Lovelace',
      first_name: 'Ada',
    };
    const contact = contactInOrder(stored);
    expect(Object.keys(contact)).toEqual(['first_name', 'last_name', 'email', 'address', 'phone']);
    expect(Object.keys(contact.address)).toEqual([
      'thoroughfare',
      'locality',
      'postal_code',
      'country',
      'premise',
      'state',
    ]);
    expect(contact).toEqual(stored);
  });

  it('leaves out optional fields that are absent or undefined', () => {
    const contact = contactInOrder({
      first_name: 'Charles',
      last_name: 'Babbage',
      email: 'charles@example.com',
      phone: undefined,
      address: {
        thoroughfare: 'Dorset Street 1',
        locality: 'London',
        postal_code: 'W1U 6QT',
        country: 'GB',
        state: undefined,
      },
    });
    expect('phone' in contact).toBe(false);
    expect('state' in contact.address).toBe(false);
    expect('premise' in contact.address).toBe(false);
  });
});
