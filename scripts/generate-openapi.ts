import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createOpenApiDocument } from '../adapters/http/openapi/index.js';

/**
 * `npm run openapi`: writes docs/openapi.json, the OpenAPI document generated from the zod
 * schemas and the route table. `--check` only says whether the committed copy is stale.
 */
const path = join(import.meta.dirname, '..', 'docs', 'openapi.json');
const next = `${JSON.stringify(createOpenApiDocument(), null, 2)}\n`;
let current: string | null = null;
try {
  current = readFileSync(path, 'utf8');
} catch {
  // First run: nothing committed yet.
}
if (process.argv.includes('--check')) {
  if (next !== current) {
    console.error('docs/openapi.json is stale: run `npm run openapi`');
    process.exit(1);
  }
  console.log('docs/openapi.json is up to date');
} else {
  writeFileSync(path, next);
  console.log(next === current ? 'docs/openapi.json unchanged' : 'docs/openapi.json written');
}
