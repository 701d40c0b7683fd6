import { expect } from 'vitest';
import type { Answer } from './client.js';

/** Asserts an RFC 9457 problem document with this status and code (decisions.md section 5). */
export function expectProblem(answer: Answer, status: number, code: string): void {
  expect({ status: answer.status, code: answer.json?.code }).toEqual({ status, code });
  expect(answer.headers['content-type']).toBe('application/problem+json');
  expect(answer.json).toMatchObject({ status, code });
  expect(typeof answer.json.type).toBe('string');
  expect(answer.json.type.endsWith(code)).toBe(true);
  expect(typeof answer.json.title).toBe('string');
  expect(typeof answer.json.detail).toBe('string');
  const allowed = new Set(['type', 'title', 'status', 'detail', 'code', 'errors', 'payment_may_exist']);
  expect(Object.keys(answer.json).filter((key) => !allowed.has(key))).toEqual([]);
  // Only a create's 503 may say that the payment may exist, and then only `true`.
  if (answer.json.payment_may_exist !== undefined) {
    expect({ status, code, payment_may_exist: answer.json.payment_may_exist }).toEqual({
      status: 503,
      code: 'unavailable',
      payment_may_exist: true,
    });
  }
  if (answer.json.errors !== undefined) {
    expect(Array.isArray(answer.json.errors)).toBe(true);
    for (const issue of answer.json.errors) {
      expect(Object.keys(issue).sort()).toEqual(['message', 'path']);
      expect(typeof issue.path).toBe('string');
      expect(typeof issue.message).toBe('string');
    }
  }
}
