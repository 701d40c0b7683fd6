import { err, ok, type Result } from 'neverthrow';
import { summarizeIssues, type ValidationIssue } from '../../src/errors/payment-error.js';
import { finalizeIssues, type RawIssue } from '../../src/schemas/validation-issues.js';
import { problem, type Problem } from './problem-details.js';

/** Query parameters of a route: each allowed name at most once; anything else is a 400. */
export function readQuery(url: URL, allowed: readonly string[]): Result<Readonly<Record<string, string>>, Problem> {
  const values: Record<string, string> = {};
  const issues: RawIssue[] = [];
  const seen = new Set<string>();
  for (const [name, value] of url.searchParams) {
    if (!allowed.includes(name)) {
      issues.push({ path: [name], message: 'Unknown query parameter' });
    } else if (seen.has(name)) {
      issues.push({ path: [name], message: 'Must be given at most once' });
    } else {
      seen.add(name);
      values[name] = value;
    }
  }
  if (issues.length > 0) return err(validationProblem(finalizeIssues(issues)));
  return ok(values);
}

export function validationProblem(errors: readonly ValidationIssue[]): Problem {
  return problem('validation_failed', summarizeIssues(errors), { errors });
}

/** `limit` of the list: an integer 1..100 written in plain decimal; absent means the default. */
export function parseLimit(text: string | undefined): Result<number | undefined, Problem> {
  if (text === undefined) return ok(undefined);
  const value = /^[1-9][0-9]{0,2}$/.test(text) ? Number(text) : NaN;
  if (value >= 1 && value <= 100) return ok(value);
  return err(validationProblem([{ path: 'limit', message: 'Must be an integer from 1 to 100' }]));
}
