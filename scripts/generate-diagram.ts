import { readFileSync, writeFileSync } from 'node:fs';
import { DOC_PATH, withGeneratedDiagram } from './state-machine-doc.js';

const current = readFileSync(DOC_PATH, 'utf8');
const next = withGeneratedDiagram(current);
if (process.argv.includes('--check')) {
  if (next !== current) {
    console.error('docs/state-machine.md is stale: run `npm run diagram`');
    process.exit(1);
  }
  console.log('docs/state-machine.md is up to date');
} else {
  writeFileSync(DOC_PATH, next);
  console.log(next === current ? 'docs/state-machine.md unchanged' : 'docs/state-machine.md regenerated');
}
