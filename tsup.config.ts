import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    memory: 'adapters/memory/index.ts',
    sandbox: 'adapters/sandbox/index.ts',
    node: 'adapters/node/index.ts',
    http: 'adapters/http/index.ts',
    express: 'adapters/http/express/index.ts',
    fastify: 'adapters/http/fastify/index.ts',
    'sandbox-server': 'adapters/sandbox-server/index.ts',
    cli: 'bin/paystate.ts',
    postgres: 'adapters/postgres/index.ts',
    'hosted-page': 'adapters/http/hosted-page/index.ts',
    webhooks: 'adapters/webhooks/index.ts',
    otel: 'adapters/otel/index.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  // Maps name the TypeScript file and line in stack traces (`node --enable-source-maps`) but do not
  // embed the sources: they were half the package, and the unminified build reads well on its own.
  sourcemap: true,
  esbuildOptions(options) {
    options.sourcesContent = false;
  },
  clean: true,
  target: 'node20',
  splitting: true,
  treeshake: true,
  // Keep `node:crypto`, `node:http`…: tsup 8 strips the prefix unless told not to.
  removeNodeProtocol: false,
});
