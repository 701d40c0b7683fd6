import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const lock = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8')) as {
  packages: Record<string, { optionalDependencies?: Record<string, string> }>;
};

describe('package-lock.json', () => {
  it('lists every optional dependency of every package, so `npm ci` accepts it (run scripts/complete-lockfile.ts after npm install)', () => {
    const missing: string[] = [];
    for (const [key, entry] of Object.entries(lock.packages)) {
      for (const name of Object.keys(entry.optionalDependencies ?? {})) {
        if (name === 'fsevents') continue;
        const nested = `${key}/node_modules/${name}`;
        if (lock.packages[nested] === undefined && lock.packages[`node_modules/${name}`] === undefined)
          missing.push(name);
      }
    }
    expect(missing).toEqual([]);
  });
});
