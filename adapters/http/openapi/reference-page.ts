import { escapeHtml } from '../hosted-page/html.js';
import { COMPONENT_SCHEMA_PREFIX } from './json-schema.js';
import type {
  JsonSchema,
  OpenApiDocument,
  OpenApiMethod,
  OpenApiOperation,
  OpenApiParameter,
  OpenApiPathItem,
  OpenApiReference,
  OpenApiResponse,
} from './openapi-types.js';

/** The page's only style sheet (the page has no script); its hash goes into the CSP. */
export const REFERENCE_PAGE_STYLE = `
:root { color-scheme: light dark; --muted: #6b7280; --line: #d1d5db; --code: rgba(127, 127, 127, 0.12); }
body { font: 15px/1.55 system-ui, sans-serif; max-width: 64rem; margin: 0 auto; padding: 1rem 1.5rem 4rem; }
h1 small { color: var(--muted); font-weight: normal; font-size: 0.6em; }
h2 { border-bottom: 1px solid var(--line); padding-bottom: 0.2rem; margin-top: 2.5rem; }
h3 { margin-top: 2rem; }
h4 { margin: 1.2rem 0 0.4rem; }
h5 { font-size: 1rem; margin: 1rem 0 0.2rem; }
code, pre { font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, monospace; background: var(--code); border-radius: 3px; }
code { padding: 0 0.2em; overflow-wrap: anywhere; }
pre { padding: 0.6rem 0.8rem; overflow-x: auto; }
table { border-collapse: collapse; width: 100%; margin: 0.3rem 0; }
th, td { text-align: left; vertical-align: top; border-top: 1px solid var(--line); padding: 0.3rem 0.75rem 0.3rem 0; }
td:first-child { white-space: nowrap; width: 1%; }
td > p:first-of-type { margin-top: 0.2rem; }
th { font-weight: 600; font-size: 0.85em; color: var(--muted); }
td table { margin: 0.2rem 0 0 0; font-size: 0.95em; }
.method { display: inline-block; min-width: 3.2rem; font: bold 12px/1.8 ui-monospace, monospace; text-align: center; border-radius: 3px; color: #fff; background: #2563eb; }
.method.post { background: #059669; }
.status { font-weight: bold; }
.muted { color: var(--muted); }
nav ul { list-style: none; padding-left: 0; }
nav li { margin: 0.15rem 0; }
nav a { text-decoration: none; }
`;

/** The little Markdown the document's descriptions use: paragraphs, `- ` lists, `code`, **strong**. */
function markdown(text: string): string {
  const inline = (line: string) =>
    escapeHtml(line)
      .replace(/`([^`]+)`/g, '<code>$1</code>')
      .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');
  return text
    .split(/\n{2,}/)
    .map((block) => {
      const lines = block.split('\n');
      if (lines.every((line) => line.startsWith('- '))) {
        return `<ul>${lines.map((line) => `<li>${inline(line.slice(2))}</li>`).join('')}</ul>`;
      }
      return `<p>${inline(lines.join(' '))}</p>`;
    })
    .join('\n');
}

const code = (text: string): string => `<code>${escapeHtml(text)}</code>`;
const literal = (value: unknown): string => code(JSON.stringify(value));
const schemaAnchor = (name: string): string => `schema-${name}`;

function refName(ref: string): string | null {
  return ref.startsWith(COMPONENT_SCHEMA_PREFIX) ? ref.slice(COMPONENT_SCHEMA_PREFIX.length) : null;
}

function asSchema(value: unknown): JsonSchema | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonSchema) : null;
}

/** Constraints of a schema as short phrases: `1 to 100 characters`, `pattern …`, `default 20`. */
function constraints(schema: JsonSchema): string[] {
  const out: string[] = [];
  const { minLength, maxLength, minimum, maximum } = schema;
  const characters = (n: number) => `${n} character${n === 1 ? '' : 's'}`;
  if (typeof minLength === 'number' && typeof maxLength === 'number') {
    out.push(minLength === 0 ? `at most ${characters(maxLength)}` : `${minLength} to ${characters(maxLength)}`);
  } else if (typeof maxLength === 'number') out.push(`at most ${characters(maxLength)}`);
  else if (minLength === 1) out.push('not empty');
  else if (typeof minLength === 'number' && minLength > 1) out.push(`at least ${characters(minLength)}`);
  const safe = (n: unknown) => typeof n === 'number' && Math.abs(n) < Number.MAX_SAFE_INTEGER;
  if (safe(minimum) && safe(maximum)) out.push(`${String(minimum)} to ${String(maximum)}`);
  else if (safe(minimum)) out.push(`at least ${String(minimum)}`);
  else if (safe(maximum)) out.push(`at most ${String(maximum)}`);
  if (typeof schema['format'] === 'string') {
    // A format says it all: the pattern zod writes beside it only spells the format out.
    out.push(`format ${code(schema['format'])}`);
  } else {
    const members = (schema['allOf'] as JsonSchema[] | undefined) ?? [];
    for (const pattern of [schema['pattern'], ...members.map((member) => member['pattern'])]) {
      if (typeof pattern === 'string') out.push(`pattern ${code(pattern)}`);
    }
  }
  const values = schema['enum'];
  if (Array.isArray(values))
    out.push(values.length === 1 ? `always ${literal(values[0])}` : `one of ${values.map(literal).join(', ')}`);
  if ('const' in schema) out.push(`always ${literal(schema['const'])}`);
  if ('default' in schema) out.push(`default ${literal(schema['default'])}`);
  return out;
}

/** A schema as HTML: `inline`, a phrase (a link, a type and its constraints); `block`, a table of an object's fields. */
function schemaParts(schema: JsonSchema): { inline: string; block: string } {
  if (typeof schema['$ref'] === 'string') {
    const name = refName(schema['$ref']);
    const inline = name === null ? code(schema['$ref']) : `<a href="#${schemaAnchor(name)}">${escapeHtml(name)}</a>`;
    return { inline, block: '' };
  }
  if (Array.isArray(schema['allOf']) && schema['type'] === undefined) {
    // A schema narrowed by the members after it: `Problem with status always 401, code always …`.
    const [first, ...narrowings] = schema['allOf'] as JsonSchema[];
    const said = narrowings.map((narrowing) => {
      const properties = asSchema(narrowing['properties']);
      if (properties === null) return renderSchema(narrowing);
      return Object.entries(properties)
        .map(([name, value]) => `${code(name)} ${constraints(asSchema(value) ?? {}).join(', ')}`)
        .join(', ');
    });
    return { inline: [first === undefined ? 'any' : renderSchema(first), ...said].join(' with '), block: '' };
  }
  const type = schema['type'];
  if (type === 'array') {
    const items = asSchema(schema['items']);
    return { inline: `array of ${items === null ? 'anything' : renderSchema(items)}`, block: '' };
  }
  const properties = asSchema(schema['properties']);
  const inline = [typeof type === 'string' ? escapeHtml(type) : 'any', ...constraints(schema)].join(', ');
  return { inline, block: type === 'object' && properties !== null ? propertiesTable(schema) : '' };
}

/** A schema, with its description in a table cell: the phrase, then the description, then the fields. */
function renderSchema(schema: JsonSchema, description?: string): string {
  const { inline, block } = schemaParts(schema);
  return `${inline}${description === undefined ? '' : markdown(description)}${block}`;
}

function propertiesTable(schema: JsonSchema): string {
  const properties = asSchema(schema['properties']) ?? {};
  const required = new Set(Array.isArray(schema['required']) ? (schema['required'] as string[]) : []);
  const rows = Object.entries(properties).map(([name, value]) => {
    const property = asSchema(value) ?? {};
    const description = typeof property['description'] === 'string' ? property['description'] : undefined;
    const optional = required.has(name) ? '' : ' <span class="muted">optional</span>';
    return `<tr><td>${code(name)}${optional}</td><td>${renderSchema(property, description)}</td></tr>`;
  });
  return `<table><tr><th>field</th><th>type and meaning</th></tr>${rows.join('')}</table>`;
}

function resolveParameter(document: OpenApiDocument, parameter: OpenApiParameter | OpenApiReference): OpenApiParameter {
  if (!('$ref' in parameter)) return parameter;
  const name = parameter.$ref.replace('#/components/parameters/', '');
  const found = document.components.parameters[name];
  if (found === undefined) throw new Error(`Unknown parameter ${parameter.$ref}`);
  return found;
}

function renderParameters(document: OpenApiDocument, operation: OpenApiOperation): string {
  if (operation.parameters.length === 0) return '';
  const rows = operation.parameters.map((reference) => {
    const p = resolveParameter(document, reference);
    return `<tr><td>${code(p.name)}</td><td>${p.in}</td><td>${p.required ? 'required' : 'optional'}</td><td>${renderSchema(p.schema, p.description)}</td></tr>`;
  });
  return `<h4>Parameters</h4><table><tr><th>name</th><th>in</th><th></th><th>type and meaning</th></tr>${rows.join('')}</table>`;
}

function renderRequestBody(operation: OpenApiOperation): string {
  const body = operation.requestBody;
  if (body === undefined) return '';
  const parts = Object.entries(body.content).map(([type, media]) => {
    const examples = Object.entries(media.examples ?? {}).map(
      ([, example]) =>
        `<p><strong>Example: ${escapeHtml(example.summary ?? '')}</strong></p>${example.description === undefined ? '' : markdown(example.description)}<pre>${escapeHtml(JSON.stringify(example.value, null, 2))}</pre>`,
    );
    return `<p>${code(type)}, ${body.required ? 'required' : 'optional'}: ${renderSchema(media.schema)}</p>${examples.join('')}`;
  });
  return `<h4>Request body</h4>${markdown(body.description)}${parts.join('')}`;
}

function renderResponse(status: string, response: OpenApiResponse): string {
  const headers = Object.entries(response.headers ?? {}).map(
    ([name, header]) =>
      `<tr><td>${code(name)}${header.required === true ? '' : ' <span class="muted">optional</span>'}</td><td>${renderSchema(header.schema, header.description)}</td></tr>`,
  );
  const content = Object.entries(response.content ?? {}).map(
    ([type, media]) => `<p>${code(type)}: ${renderSchema(media.schema)}</p>`,
  );
  const headerTable =
    headers.length === 0 ? '' : `<table><tr><th>header</th><th>type and meaning</th></tr>${headers.join('')}</table>`;
  return `<h5><span class="status">${escapeHtml(status)}</span></h5>${markdown(response.description)}${headerTable}${content.join('')}`;
}

/** `POST /v1/…`, or for a webhook `POST payment.succeeded (to your endpoint)`. */
function operationTitle({ path, method, webhook }: Listed): string {
  const target = webhook ? `${code(path)} <span class="muted">to your endpoint</span>` : code(path);
  return `<span class="method ${method}">${method.toUpperCase()}</span> ${target}`;
}

function renderOperation(document: OpenApiDocument, listed: Listed) {
  const { operation } = listed;
  const responses = Object.entries(operation.responses).map(([status, response]) => renderResponse(status, response));
  return `<section id="${escapeHtml(operation.operationId)}">
<h3>${operationTitle(listed)}</h3>
<p><strong>${escapeHtml(operation.summary)}</strong> <span class="muted">(${code(operation.operationId)})</span></p>
${markdown(operation.description)}
${renderParameters(document, operation)}
${renderRequestBody(operation)}
<h4>Responses</h4>
${responses.join('\n')}
</section>`;
}

interface Listed {
  /** The path, or for a webhook its name (the event type). */
  readonly path: string;
  readonly method: OpenApiMethod;
  readonly operation: OpenApiOperation;
  /** One of `webhooks`: a request paystate sends, not one it answers. */
  readonly webhook: boolean;
}

function operationsOf(document: OpenApiDocument): Listed[] {
  const listed: Listed[] = [];
  const add = (items: Record<string, OpenApiPathItem> | undefined, webhook: boolean) => {
    for (const [path, item] of Object.entries(items ?? {})) {
      for (const [method, operation] of Object.entries(item) as [OpenApiMethod, OpenApiOperation][]) {
        listed.push({ path, method, operation, webhook });
      }
    }
  };
  add(document.paths, false);
  add(document.webhooks, true);
  return listed;
}

/**
 * A readable reference of an OpenAPI document as one self-contained HTML page: every operation
 * and webhook with its parameters, body, examples and answers, then every schema. No script, no external
 * resource; the only style is `REFERENCE_PAGE_STYLE`.
 */
export function renderReferencePage(document: OpenApiDocument): string {
  const { info } = document;
  const listed = operationsOf(document);
  const tags = document.tags.map((tag) => ({
    ...tag,
    operations: listed.filter((entry) => entry.operation.tags.includes(tag.name)),
  }));
  const nav = tags
    .map(
      (tag) =>
        `<li><strong>${escapeHtml(tag.name)}</strong><ul>${tag.operations
          .map(
            (entry) =>
              `<li><a href="#${escapeHtml(entry.operation.operationId)}">${operationTitle(entry)}</a> ${escapeHtml(entry.operation.summary)}</li>`,
          )
          .join('')}</ul></li>`,
    )
    .join('');
  const schemaNames = Object.keys(document.components.schemas);
  const sections = tags
    .map(
      (tag) =>
        `<h2>${escapeHtml(tag.name)}</h2>${markdown(tag.description)}${tag.operations
          .map((entry) => renderOperation(document, entry))
          .join('\n')}`,
    )
    .join('\n');
  const schemas = Object.entries(document.components.schemas)
    .map(([name, schema]) => {
      const description = typeof schema['description'] === 'string' ? markdown(schema['description']) : '';
      const { inline, block } = schemaParts(schema);
      return `<section id="${schemaAnchor(name)}"><h3>${escapeHtml(name)}</h3>${description}<p>${inline}</p>${block}</section>`;
    })
    .join('\n');
  const servers = document.servers.map((server) => code(server.url)).join(', ');
  const security = Object.values(document.components.securitySchemes)
    .map((scheme) => markdown(scheme.description))
    .join('');

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(`${info.title} ${info.version}`)}: reference</title>
<style>${REFERENCE_PAGE_STYLE}</style>
</head>
<body>
<header>
<h1>${escapeHtml(info.title)} <small>${escapeHtml(info.version)}</small></h1>
${info.description === undefined ? '' : markdown(info.description)}
<p>Server: ${servers}. Authentication: <code>Authorization: Bearer &lt;token&gt;</code>.</p>
${security}
<p>Machine-readable: <a href="openapi.json">openapi.json</a> (OpenAPI ${escapeHtml(document.openapi)}).</p>
</header>
<nav>
<h2>Operations</h2>
<ul>${nav}</ul>
<h2>Schemas</h2>
<ul>${schemaNames.map((name) => `<li><a href="#${schemaAnchor(name)}">${escapeHtml(name)}</a></li>`).join('')}</ul>
</nav>
<main>
${sections}
<h2 id="schemas">Schemas</h2>
<p>Request objects refuse fields they do not list; answers hold no others. Some rules are checked beyond what a schema can say (the card number's check digit, the currency and country code lists, an expiry not in the past): the descriptions name them.</p>
${schemas}
</main>
</body>
</html>
`;
}
