import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const docs = join(root, 'docs');
const read = (path: string) => readFileSync(path, 'utf8');

/** Every file under `dir`, as paths relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)));
}

/** The relative link targets of a Markdown file (no URLs, no anchors), resolved to paths. */
function localLinks(file: string): string[] {
  return [...read(file).matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1] ?? '')
    .filter((target) => !/^[a-z]+:/i.test(target) && !target.startsWith('#'))
    .map((target) => resolve(dirname(file), target.replace(/#.*$/, '')));
}

const guides = readdirSync(join(docs, 'guides')).filter((name) => name.endsWith('.md'));

describe('docs/index.md', () => {
  it('links every document in docs/', () => {
    const linked = new Set(localLinks(join(docs, 'index.md')));
    const documents = filesUnder(docs).filter((path) => /\.(?:md|json)$/.test(path) && path !== 'index.md');
    expect(documents.filter((path) => !linked.has(join(docs, path)))).toEqual([]);
  });

  it('and the guides link only to files that exist', () => {
    for (const file of [join(docs, 'index.md'), ...guides.map((name) => join(docs, 'guides', name))]) {
      expect(
        localLinks(file).filter((target) => !existsSync(target)),
        relative(root, file),
      ).toEqual([]);
    }
  });
});

describe('the guides', () => {
  it('each follow a runnable example, and every example has a guide (or the README)', () => {
    const mentioned = new Set<string>();
    for (const name of guides) {
      const examples = [...read(join(docs, 'guides', name)).matchAll(/examples\/[\w/-]+\.ts/g)].map((m) => m[0]);
      expect(examples.length, name).toBeGreaterThan(0);
      for (const example of examples) {
        expect(existsSync(join(root, example)), `${name}: ${example}`).toBe(true);
        mentioned.add(example);
      }
    }
    for (const example of [...read(join(root, 'README.md')).matchAll(/examples\/[\w/-]+\.ts/g)])
      mentioned.add(example[0]);
    const runnable = readdirSync(join(root, 'examples')).filter((name) => name.endsWith('.ts'));
    expect(runnable.filter((name) => !mentioned.has(`examples/${name}`))).toEqual([]);
  });

  it('each example is run by a test of its own', () => {
    const runnable = readdirSync(join(root, 'examples')).filter((name) => name.endsWith('.ts'));
    for (const name of runnable) {
      expect(existsSync(join(import.meta.dirname, name.replace(/\.ts$/, '.test.ts'))), name).toBe(true);
    }
  });
});
