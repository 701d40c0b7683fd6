const ada = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  address: { thoroughfare: 'Damrak 1', locality: 'Amsterdam', postal_code: '1012 LG', country: 'NL' },
};

const hosted = {
  description: 'Order 1234',
  reference: 'order-1234',
  method: 'creditcard',
  currency: 'EUR',
  amount: 1999,
  billing: ada,
  shipping: ada,
  session: { redirect_url: 'https://shop.example.com/return' },
};

/** Example bodies of `POST /v1/profiles/{profile_id}/payments`, shown in the document (tests check they are valid). */
export const CREATE_PAYMENT_EXAMPLES = {
  hosted: {
    summary: 'Hosted flow',
    description: 'The answer carries `next.redirect`: send the cardholder to the hosted payment page.',
    value: hosted,
  },
  direct: {
    summary: 'Direct flow (PCI DSS compliant clients only)',
    description: 'With the sandbox test card 4242 4242 4242 4242: approved without 3-D Secure.',
    value: {
      ...hosted,
      creditcard: {
        number: '4242424242424242',
        cvc: '123',
        expiration: '2039-12-01T00:00:00.000Z',
        holder_name: 'Ada Lovelace',
      },
      user: {
        ip_address: '192.0.2.10',
        user_agent: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
        accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
        accept_encoding: 'gzip, deflate, br',
        accept_language: 'en-GB,en;q=0.5',
        language: 'en-GB',
        screen_width: 1920,
        screen_height: 1080,
        java_enabled: false,
        javascript_enabled: true,
        color_depth: 24,
        timezone_offset: -60,
      },
    },
  },
} as const;
