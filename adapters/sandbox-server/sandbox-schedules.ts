import type { PaymentEngineOptions } from '../../src/engine/engine-options.js';
import { DEFAULT_INQUIRY_DELAYS } from '../../src/machine/inquiry-schedule.js';
import type { SandboxSchedules } from '../memory/index.js';

/**
 * The engine options of a config's `schedules`: the lifetimes as they are, and an inquiry schedule
 * that starts at `inquiry_first_delay_ms` and then follows the default one, never shorter than it.
 */
export function scheduleEngineOptions(
  schedules: SandboxSchedules | undefined,
): Pick<PaymentEngineOptions, 'hostedPageTimeoutMs' | 'challengeTimeoutMs' | 'inquiryDelaysMs'> {
  const first = schedules?.inquiry_first_delay_ms;
  return {
    ...(schedules?.hosted_page_lifetime_ms !== undefined && { hostedPageTimeoutMs: schedules.hosted_page_lifetime_ms }),
    ...(schedules?.challenge_lifetime_ms !== undefined && { challengeTimeoutMs: schedules.challenge_lifetime_ms }),
    ...(first !== undefined && {
      inquiryDelaysMs: [first, ...DEFAULT_INQUIRY_DELAYS.slice(1).map((delay) => Math.max(delay, first))],
    }),
  };
}
