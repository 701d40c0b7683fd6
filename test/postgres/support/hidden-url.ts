import { expect } from 'vitest';

/**
 * Asserts that `text` shows neither the database URL nor its password (as written in the URL or
 * decoded), when it has one: what "never prints the connection string" means on a server with a
 * password and on one without (trust authentication, `postgres://postgres@host:5432/db`), where
 * there is no password to look for.
 */
export function expectUrlHidden(text: string, url: string, label?: string): void {
  expect(text, label).not.toContain(url);
  const { password } = new URL(url);
  if (password === '') return;
  expect(text, label).not.toContain(password);
  expect(text, label).not.toContain(decodeURIComponent(password));
}
