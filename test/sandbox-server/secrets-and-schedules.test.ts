import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createTestClock, parseSandboxConfig, parseSandboxSecrets } from '../../adapters/memory/index.js';
import {
  BUNDLED_SANDBOX_CONFIG,
  createSandboxApp,
  generateSandboxSecrets,
  readSandboxConfigFile,
  scheduleEngineOptions,
  sharedSandboxSecrets,
} from '../../adapters/sandbox-server/index.js';
import { DEFAULT_INQUIRY_DELAYS } from '../../src/index.js';
import { directRequest, hostedRequest } from '../support/requests.js';

describe('sandbox config: secrets', () => {
  it('takes the secrets `paystate secrets` makes, and reads the vault keys as 32 bytes', () => {
    const secrets = generateSandboxSecrets(new Date('2026-11-28T12:00:00Z'));
    expect(secrets.card_vault_keys[0]?.id).toBe('key-2026-11-28');
    const config = parseSandboxConfig({ ...BUNDLED_SANDBOX_CONFIG, secrets })._unsafeUnwrap();
    const shared = sharedSandboxSecrets(config.secrets)._unsafeUnwrap();
    expect(shared.csrf).toBe(secrets.csrf_secret);
    expect(shared.challenge).toBe(secrets.challenge_secret);
    expect(shared.pageLink).toBe(secrets.page_link_secret);
    expect(secrets.page_link_secret.length).toBeGreaterThanOrEqual(32);
    expect(shared.cardVaultKeys.map(({ id, key }) => [id, Buffer.from(key).toString('base64')])).toEqual([
      ['key-2026-11-28', secrets.card_vault_keys[0]?.key],
    ]);
    expect(generateSandboxSecrets(new Date()).csrf_secret).not.toBe(secrets.csrf_secret);
  });

  it('names what a shared database lacks', () => {
    expect(sharedSandboxSecrets(undefined)._unsafeUnwrapErr()).toEqual([
      'csrf_secret',
      'challenge_secret',
      'page_link_secret',
      'card_vault_keys',
    ]);
    const { card_vault_keys: keys, page_link_secret: pageLink } = generateSandboxSecrets(new Date());
    expect(sharedSandboxSecrets({ card_vault_keys: keys })._unsafeUnwrapErr()).toEqual([
      'csrf_secret',
      'challenge_secret',
      'page_link_secret',
    ]);
    expect(sharedSandboxSecrets({ card_vault_keys: keys, page_link_secret: pageLink })._unsafeUnwrapErr()).toEqual([
      'csrf_secret',
      'challenge_secret',
    ]);
  });

  it('refuses weak secrets and bad keys without repeating them', () => {
    const short = 'too-short-secret';
    const badKey = randomBytes(16).toString('base64');
    const error = parseSandboxSecrets({
      csrf_secret: short,
      challenge_secret: 'x'.repeat(32),
      page_link_secret: short,
      card_vault_keys: [
        { id: 'k1', key: badKey },
        { id: 'k1', key: randomBytes(32).toString('base64') },
        { id: 'bad id!', key: randomBytes(32).toString('base64') },
      ],
    })._unsafeUnwrapErr();
    expect(error.issues.map((issue) => issue.path)).toEqual(
      expect.arrayContaining([
        'csrf_secret',
        'page_link_secret',
        'card_vault_keys[0].key',
        'card_vault_keys[2].id',
        'card_vault_keys',
      ]),
    );
    expect(error.message).not.toContain(short);
    expect(error.message).not.toContain(badKey);
    expect(parseSandboxSecrets({ card_vault_keys: [] })._unsafeUnwrapErr().message).toContain('at least one key');
    expect(parseSandboxSecrets({ vault: 'x' }).isErr()).toBe(true);
  });
});

describe('sandbox config: schedules', () => {
  it('keeps each setting within its bounds, as a whole number of milliseconds', () => {
    const base = { partners: [], clients: [] };
    expect(parseSandboxConfig({ ...base, schedules: { sweep_interval_ms: 100 } }).isOk()).toBe(true);
    for (const schedules of [
      { sweep_interval_ms: 0 },
      { sweep_interval_ms: 60_001 },
      { inquiry_first_delay_ms: 99 },
      { hosted_page_lifetime_ms: 999 },
      { challenge_lifetime_ms: 86_400_001 },
      { challenge_lifetime_ms: 1500.5 },
      { challenge_lifetime_ms: '1000' },
      { sweep_every: 10 },
    ]) {
      const error = parseSandboxConfig({ ...base, schedules })._unsafeUnwrapErr();
      expect(error.issues[0]?.path, JSON.stringify(schedules)).toMatch(/^schedules/);
    }
  });

  it('maps to engine options: lifetimes as given, inquiries from the first delay on, never shorter than the default', () => {
    expect(scheduleEngineOptions(undefined)).toEqual({});
    const options = scheduleEngineOptions({
      hosted_page_lifetime_ms: 5000,
      challenge_lifetime_ms: 3000,
      inquiry_first_delay_ms: 45_000,
    });
    expect(options.hostedPageTimeoutMs).toBe(5000);
    expect(options.challengeTimeoutMs).toBe(3000);
    expect(options.inquiryDelaysMs?.[0]).toBe(45_000);
    expect(options.inquiryDelaysMs?.[1]).toBe(45_000);
    expect(options.inquiryDelaysMs?.slice(2)).toEqual(DEFAULT_INQUIRY_DELAYS.slice(2));
  });

  it('the sandbox app runs on the config’s schedules: hosted pages and challenges end after their lifetimes', async () => {
    const clock = createTestClock();
    const config = {
      ...BUNDLED_SANDBOX_CONFIG,
      schedules: { hosted_page_lifetime_ms: 2000, challenge_lifetime_ms: 1500 },
    };
    const app = createSandboxApp({ config, clock, baseUrl: () => 'http://127.0.0.1:1' });
    const client = { id: 'c', partnerId: 'partner_sandbox', profileIds: ['profile_webshop'], pciDssCompliant: true };
    const hosted = (
      await app.engine.createPayment({ client, profileId: 'profile_webshop', body: hostedRequest() })
    )._unsafeUnwrap();
    expect((await app.engine.getPaymentRecord(hosted.id))._unsafeUnwrap().expiresAt).toBe(clock.now() + 2000);
    const created = (
      await app.engine.createPayment({ client, profileId: 'profile_webshop', body: directRequest('4000000000003220') })
    )._unsafeUnwrap();
    expect(created.state).toBe('processing');
    const record = (await app.engine.getPaymentRecord(created.id))._unsafeUnwrap();
    expect(record.expiresAt).toBe(clock.now() + 1500);
    clock.advance(1501);
    await app.engine.sweep();
    expect((await app.engine.getPaymentRecord(created.id))._unsafeUnwrap().state).toBe('expired');
    expect((await app.engine.getPaymentRecord(hosted.id))._unsafeUnwrap().state).toBe('awaiting_card_data');
    clock.advance(500);
    await app.engine.sweep();
    expect((await app.engine.getPaymentRecord(hosted.id))._unsafeUnwrap().state).toBe('expired');
  });
});

describe('examples/sandbox-config.json', () => {
  it('is a valid config with secrets a shared database takes and every schedule', async () => {
    const read = await readSandboxConfigFile(
      fileURLToPath(new URL('../../examples/sandbox-config.json', import.meta.url)),
    );
    const config = read._unsafeUnwrap();
    expect(sharedSandboxSecrets(config.secrets).isOk()).toBe(true);
    expect(Object.keys(config.schedules ?? {}).sort()).toEqual([
      'challenge_lifetime_ms',
      'hosted_page_lifetime_ms',
      'inquiry_first_delay_ms',
      'sweep_interval_ms',
    ]);
  });
});
