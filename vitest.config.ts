import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  resolve: {
    // Examples import the package by name, as a host would; tests run them against the sources.
    alias: [
      { find: /^paystate$/, replacement: here('./src/index.ts') },
      // The HTTP family: the hosted page and the Express bridge live under adapters/http.
      { find: /^paystate\/(express|fastify|hosted-page)$/, replacement: here('./adapters/http/$1/index.ts') },
      { find: /^paystate\/(.*)$/, replacement: here('./adapters/$1/index.ts') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
