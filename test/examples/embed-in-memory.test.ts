import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const example = join(root, 'examples', 'embed-in-memory.ts');

describe('examples/embed-in-memory.ts', () => {
  it('runs and creates a hosted payment waiting on the hosted page', () => {
    const output = execFileSync(join(root, 'node_modules', '.bin', 'tsx'), [example], { cwd: root, encoding: 'utf8' });
    expect(output).toMatch(/^processing https:\/\/pay\.example\/pay\/payment_[0-9a-f]{32}\?token=[\w-]+\n$/);
  });

  it('is the example the README shows, word for word', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(readme).toContain(readFileSync(example, 'utf8').trim());
  });
});
