import { z } from 'zod';
import { jsonSchemaKeywordsOf } from '../../../src/schemas/json-schema-keywords.js';
import { caseInsensitivePattern } from './case-insensitive-pattern.js';
import type { JsonSchema, OpenApiReference } from './openapi-types.js';

/** Metadata a schema can carry into the document: a component id, a description. */
export interface SchemaMeta {
  readonly id?: string;
  readonly description?: string;
}

export type SchemaRegistry = z.core.$ZodRegistry<SchemaMeta>;

/** Which side of the API a schema describes: requests are read as zod's input, answers as its output. */
export type SchemaSide = 'input' | 'output';

export const COMPONENT_SCHEMA_PREFIX = '#/components/schemas/';

/**
 * JSON Schema's `pattern` has no flags: a case-insensitive regex is rewritten to match the
 * same strings without the flag; any other flag that changes matching is refused.
 */
type Override = NonNullable<NonNullable<Parameters<typeof z.toJSONSchema>[1]>['override']>;

/** The patterns JSON Schema gets from a schema: its regex checks' and those in its bag (`stringRules`). */
function patternsOf(schema: z.core.$ZodType): RegExp[] {
  const checks = (schema._zod.def as { checks?: readonly z.core.$ZodCheck[] }).checks ?? [];
  const patterns = new Set<RegExp>();
  for (const check of checks) {
    const pattern = (check._zod.def as { pattern?: unknown }).pattern;
    if (pattern instanceof RegExp) patterns.add(pattern);
  }
  const bagged = (schema._zod.bag as { patterns?: unknown }).patterns;
  if (bagged instanceof Set) for (const pattern of bagged) if (pattern instanceof RegExp) patterns.add(pattern);
  return [...patterns];
}

const rewriteFlaggedPatterns: Override = (ctx) => {
  for (const pattern of patternsOf(ctx.zodSchema)) {
    if (pattern.flags.replace(/[gyu]/g, '') === '') continue;
    if (pattern.flags.replace(/[gyui]/g, '') !== '') {
      throw new Error(`Cannot express the regex flags ${pattern.flags} of /${pattern.source}/ in JSON Schema`);
    }
    const rewritten = caseInsensitivePattern(pattern.source);
    const json = ctx.jsonSchema as JsonSchema;
    if (json['pattern'] === pattern.source) json['pattern'] = rewritten;
    if (Array.isArray(json['allOf'])) {
      for (const member of json['allOf'] as JsonSchema[]) {
        if (member['pattern'] === pattern.source) member['pattern'] = rewritten;
      }
    }
  }
};

/**
 * Writes the keywords checks stated for JSON Schema (`stateInJsonSchema`: code lists as `enum`,
 * formats, `dependentRequired`), after rewriting flagged patterns.
 */
const override: Override = (ctx) => {
  rewriteFlaggedPatterns(ctx);
  const keywords = jsonSchemaKeywordsOf(ctx.zodSchema);
  for (const [keyword, value] of Object.entries(keywords)) {
    if (keyword in ctx.jsonSchema) throw new Error(`zod already wrote the JSON Schema keyword ${keyword}`);
    (ctx.jsonSchema as JsonSchema)[keyword] = structuredClone(value);
  }
};

/** The conversion options both conversions share: JSON Schema 2020-12, one side, `override`. */
const options = (side: SchemaSide, registry?: SchemaRegistry) => ({
  target: 'draft-2020-12' as const,
  io: side,
  ...(registry !== undefined && { metadata: registry }),
  override,
});

function withoutDialect(schema: JsonSchema): JsonSchema {
  const { $schema: _schema, $id: _id, ...rest } = schema;
  return rest;
}

/**
 * Every schema of `registry` that has an `id`, converted for one side of the API, keyed by id;
 * references between them point at `#/components/schemas/{id}`.
 */
export function registrySchemas(registry: SchemaRegistry, side: SchemaSide): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(registry, {
    ...options(side, registry),
    uri: (id) => `${COMPONENT_SCHEMA_PREFIX}${id}`,
  });
  const out: Record<string, JsonSchema> = {};
  for (const [id, schema] of Object.entries(schemas)) {
    if (id === '__shared') throw new Error('Unexpected shared definitions in the component schemas');
    out[id] = withoutDialect(schema as JsonSchema);
  }
  return out;
}

/** One schema (a parameter, a header) converted on its own, with descriptions from `registry`. */
export function inlineSchema(schema: z.ZodType, side: SchemaSide, registry?: SchemaRegistry): JsonSchema {
  return withoutDialect(z.toJSONSchema(schema, options(side, registry)) as JsonSchema);
}

/** A reference to a component schema. */
export const componentRef = (id: string): JsonSchema => ({ $ref: `${COMPONENT_SCHEMA_PREFIX}${id}` });

/** A reference to a parameter component (the API's or the webhooks'). */
export const parameterRef = (name: string): OpenApiReference => ({ $ref: `#/components/parameters/${name}` });
