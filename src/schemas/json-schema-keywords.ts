import type { z } from 'zod';

/** JSON Schema keywords (`enum`, `oneOf`, `dependentRequired`) that state a rule no zod check states. */
export type JsonSchemaKeywords = Readonly<Record<string, unknown>>;

const BAG_KEY = 'jsonSchemaKeywords';

/**
 * Hands `keywords` to the JSON Schema of `schema` through its bag, as zod's own checks hand over
 * `pattern` or `minLength`; the OpenAPI generator writes them beside zod's. Called from a check's
 * `onattach`, so that the check that enforces a rule is the one that states it.
 * @throws Error when another check of `schema` already stated one of the keywords.
 */
export function stateInJsonSchema(schema: z.core.$ZodType, keywords: JsonSchemaKeywords): void {
  const bag = schema._zod.bag;
  const stated = jsonSchemaKeywordsOf(schema);
  for (const keyword of Object.keys(keywords)) {
    if (Object.hasOwn(stated, keyword)) throw new Error(`Two checks state the JSON Schema keyword ${keyword}`);
  }
  bag[BAG_KEY] = { ...stated, ...keywords };
}

/** The keywords the checks of `schema` stated with {@link stateInJsonSchema}; empty when none did. */
export function jsonSchemaKeywordsOf(schema: z.core.$ZodType): JsonSchemaKeywords {
  const stated = schema._zod.bag[BAG_KEY];
  return typeof stated === 'object' && stated !== null ? (stated as JsonSchemaKeywords) : {};
}
