import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { paymentMachine, toMermaid } from '../../src/machine/index.js';
import { DOC_PATH, withGeneratedDiagram } from '../../scripts/state-machine-doc.js';

describe('docs/state-machine.md', () => {
  it('holds the diagram generated from the machine (run `npm run diagram` when this fails)', () => {
    const current = readFileSync(DOC_PATH, 'utf8');
    expect(withGeneratedDiagram(current)).toBe(current);
  });

  it('draws every state and every event the machine handles', () => {
    const diagram = toMermaid(paymentMachine);
    for (const state of [
      'awaiting_card_data',
      'authenticating',
      'awaiting_challenge',
      'succeeded',
      'failed',
      'expired',
    ]) {
      expect(diagram).toContain(state);
    }
    for (const event of paymentMachine.events) expect(diagram).toContain(event);
  });
});
