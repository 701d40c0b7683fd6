import { z } from 'zod';
import { stateInJsonSchema } from './json-schema-keywords.js';

/** What to report when `present` is in the object without `absent`: path, message, and whether it is a missing key. */
export type TogetherIssue = (
  present: string,
  absent: string,
) => { readonly path: readonly string[]; readonly message: string; readonly missing?: boolean };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/**
 * A check for an object whose keys `first` and `second` come together or not at all, for
 * `z.strictObject({...}).check(requiredTogether(...))`. It runs whenever the value is an object,
 * even when other fields are wrong; `issue` says what to report. JSON Schema gets the rule as
 * `dependentRequired` (`stateInJsonSchema`).
 */
export function requiredTogether(first: string, second: string, issue: TogetherIssue): z.core.$ZodCheck<object> {
  const check: z.core.$ZodCheck<object> = new z.core.$ZodCheck({
    check: 'custom',
    when: (payload) => isRecord(payload.value),
  });
  check._zod.check = (payload) => {
    const value = payload.value as Record<string, unknown>;
    for (const [present, absent] of [
      [first, second],
      [second, first],
    ] as const) {
      if (value[present] === undefined || value[absent] !== undefined) continue;
      const { path, message, missing = false } = issue(present, absent);
      payload.issues.push({
        code: 'custom',
        path: [...path],
        message,
        input: value,
        continue: true,
        ...(missing && { params: { missing: true } }),
      });
    }
  };
  check._zod.onattach.push((schema) =>
    stateInJsonSchema(schema, { dependentRequired: { [first]: [second], [second]: [first] } }),
  );
  return check;
}
