import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { inlineSchema } from '../../adapters/http/openapi/json-schema.js';
import { stringRules } from '../../src/schemas/string-rules.js';

// `stringRules` claims to give JSON Schema what the chain of zod checks gave. The OpenAPI
// conversion rewrites case-insensitive patterns (JSON Schema has no flags) and refuses flags it
// cannot express, but it finds patterns through `check._zod.def.pattern`, which a stringRules
// check does not have: its patterns reach JSON Schema through the bag, unrewritten and unchecked.
describe('stringRules patterns in the OpenAPI document', () => {
  const LETTERS = /^[a-z]{2}$/i;

  it('are written without their flag the way chained .regex() patterns are', () => {
    const chained = inlineSchema(z.string().regex(LETTERS, 'Two letters'), 'input');
    const rules = inlineSchema(z.string().check(stringRules([{ pattern: LETTERS, message: 'Two letters' }])), 'input');
    expect(chained['pattern']).toBe('^[a-zA-Z]{2}$');
    expect(rules['pattern']).toBe(chained['pattern']);
  });

  it('are refused when their flags cannot be expressed, as chained .regex() patterns are', () => {
    const DOT_ALL = /^a.b$/s;
    expect(() => inlineSchema(z.string().regex(DOT_ALL, 'a, any, b'), 'input')).toThrow(/Cannot express/);
    expect(() =>
      inlineSchema(z.string().check(stringRules([{ pattern: DOT_ALL, message: 'a, any, b' }])), 'input'),
    ).toThrow(/Cannot express/);
  });
});

// A `refine` rule has no JSON Schema form of its own: its `jsonSchema` keywords say it there.
describe('stringRules keywords in the OpenAPI document', () => {
  const aOrB = (text: string) => text === 'a' || text === 'b';

  it('are written beside what zod writes', () => {
    const schema = z.string().check(
      stringRules([
        { max: 1, message: 'One letter' },
        { refine: aOrB, message: 'a or b', jsonSchema: { enum: ['a', 'b'] } },
      ]),
    );
    expect(inlineSchema(schema, 'input')).toEqual({ type: 'string', maxLength: 1, enum: ['a', 'b'] });
  });

  it('are refused when zod wrote the keyword or another rule stated it', () => {
    const typed = z.string().check(stringRules([{ refine: aOrB, message: 'a or b', jsonSchema: { type: 'number' } }]));
    expect(() => inlineSchema(typed, 'input')).toThrow(/already wrote the JSON Schema keyword type/);
    expect(() =>
      z.string().check(
        stringRules([
          { refine: aOrB, message: 'a or b', jsonSchema: { enum: ['a', 'b'] } },
          { refine: aOrB, message: 'a or b', jsonSchema: { enum: ['b'] } },
        ]),
      ),
    ).toThrow(/Two checks state the JSON Schema keyword enum/);
  });
});
