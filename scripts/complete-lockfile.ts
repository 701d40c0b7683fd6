// Adds to package-lock.json the optional platform packages of rollup (a build dependency of
// tsup and vitest) for platforms other than this one. `npm ci` insists that every optional
// dependency be in the lock file, but the registry this project is built against does not carry
// rollup's packages for other platforms (404), so `npm install` cannot record them. The entries
// carry rollup's own `os`/`cpu`/`libc` constraints, so npm skips them on every other platform;
// on their own platform npm fetches them by name and version from the registry.
// Run after `npm install` changes the lock file: `npx tsx scripts/complete-lockfile.ts`.
import { readFileSync, writeFileSync } from 'node:fs';

const path = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(path, 'utf8')) as {
  packages: Record<string, Record<string, unknown> & { optionalDependencies?: Record<string, string> }>;
};
const packages = lock.packages;
const rollup = packages['node_modules/rollup'];
let added = 0;
for (const [name, version] of Object.entries(rollup?.optionalDependencies ?? {})) {
  const key = `node_modules/${name}`;
  if (name === 'fsevents' || packages[key] !== undefined) continue;
  const [os = '', cpu = '', abi] = name.replace('@rollup/rollup-', '').split('-');
  const libc = os === 'linux' && abi !== undefined ? (abi.startsWith('musl') ? 'musl' : 'glibc') : undefined;
  packages[key] = {
    version,
    cpu: [cpu],
    dev: true,
    license: 'MIT',
    optional: true,
    os: [os],
    ...(libc !== undefined ? { libc: [libc] } : {}),
  };
  added += 1;
}
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: added ${added} platform entries of rollup`);
