// Writes docs/api.md from the endpoint table, the command catalogue and the API assumptions in
// electron/shared/api, so the reference cannot drift from the code: `npm run docs:api`. A unit test checks that
// the committed file equals renderApiDoc()'s output.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { z } from 'zod';
import {
  API_ASSUMPTIONS,
  AUTH_HEADER,
  AUTH_SCHEME,
  COMMAND_GROUPS,
  endpoints,
  gatewayCommands,
  type BodyEncoding,
  type CommandBodyKind,
  type EndpointDefinition,
  type GatewayCommandDefinition,
} from '../electron/shared/api';
import { commandConsequence, commandSummary } from '../electron/shared/api/command-titles';
import type { CommandName } from '../electron/shared/api/commands';
import { translatorFor } from '../electron/shared/i18n';

/** The reference is written in English, whatever the language of the machine that generates it. */
const english = translatorFor('en');
const summaryOf = (command: GatewayCommandDefinition) => commandSummary(command.name as CommandName, english);

/** Where the generated reference lives, relative to the repository root. */
export const API_DOC_PATH = 'docs/api.md';
const DOC_FILE = fileURLToPath(new URL(`../${API_DOC_PATH}`, import.meta.url));

/** The subset of JSON Schema that z.toJSONSchema produces for the API's schemas. */
interface JsonSchema {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  default?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  not?: JsonSchema;
}

/** Longer enumerations are summarised by their count, for the table of commands that lists them anyway. */
const LISTED_VALUES_MAX = 12;

const SAFE_INTEGER = Number.MAX_SAFE_INTEGER;

function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  return z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
}

function isUnchecked(schema: JsonSchema): boolean {
  return (
    schema.type === undefined && !schema.anyOf && !schema.oneOf && !schema.enum && schema.const === undefined
  );
}

/** A one-line type: `integer 1–100`, `"ASC" | "DESC"`, `array of object`. Nested objects are not expanded. */
function describeType(schema: JsonSchema): string {
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum && schema.enum.length > LISTED_VALUES_MAX) return `one of ${schema.enum.length} values`;
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(' \\| ');
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return [...new Set(variants.map(describeType))].join(' or ');
  if (isUnchecked(schema)) return 'any JSON';
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const words = types.map((type) => {
    if (type === 'array') return `array of ${schema.items ? describeType(schema.items) : 'any JSON'}`;
    if (type === 'integer' || type === 'number') return type + describeRange(schema.minimum, schema.maximum);
    if (type === 'string') return 'string' + describeLength(schema);
    return String(type);
  });
  return words.join(' or ');
}

function describeRange(minimum: number | undefined, maximum: number | undefined): string {
  const low = minimum === undefined || minimum <= -SAFE_INTEGER ? undefined : minimum;
  const high = maximum === undefined || maximum >= SAFE_INTEGER ? undefined : maximum;
  if (low !== undefined && high !== undefined) return ` ${low}–${high}`;
  if (low !== undefined) return ` ≥ ${low}`;
  if (high !== undefined) return ` ≤ ${high}`;
  return '';
}

function describeLength(schema: JsonSchema): string {
  if (schema.pattern) return ` matching \`${schema.pattern}\``;
  if (schema.minLength === 1 && schema.maxLength === undefined) return ', not empty';
  if (schema.maxLength !== undefined) return `, ${schema.minLength ?? 0}–${schema.maxLength} characters`;
  return '';
}

/** Fields of an object schema, one per line: `name` (optional) type, default. Empty for a non-object. */
function describeFields(schema: JsonSchema): string[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, field]) => {
    const optional = required.has(name) ? '' : ' (optional)';
    const fallback = field.default === undefined ? '' : `, default ${JSON.stringify(field.default)}`;
    return `\`${name}\`${optional}: ${describeType(field)}${fallback}`;
  });
}

/** A shape in one line: the top-level fields of an object, the element of an array, or the fields of a page. */
function describeShape(schema: JsonSchema): string {
  if (isUnchecked(schema)) return 'any JSON (not checked)';
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return variants.map(describeShape).join('; or ');
  if (schema.type === 'array' && schema.items) return `array of ${describeShape(schema.items)}`;
  if (schema.type === 'object') {
    const fields = Object.keys(schema.properties ?? {});
    const pageItems = schema.properties?.data?.items;
    if (pageItems && fields.includes('hasNext'))
      return `page (\`data\`, \`totalPages\`, \`totalElements\`, \`hasNext\`) of ${describeShape(pageItems)}`;
    if (fields.length === 0) return schema.additionalProperties === false ? '`{}`' : 'any JSON object';
    const required = new Set(schema.required ?? []);
    const names = Object.entries(schema.properties ?? {}).map(([name, field]) => {
      if (field.not) return `\`${name}\` (refused)`;
      if (field.const !== undefined) return `\`${name}\`: ${JSON.stringify(field.const)}`;
      return `\`${name}\`${required.has(name) ? '' : '?'}`;
    });
    return `{ ${names.join(', ')} }`;
  }
  return describeType(schema);
}

const BODY_ENCODINGS: Record<BodyEncoding, string> = {
  none: 'no body',
  json: 'JSON (`application/json`)',
  'text-json': 'JSON text sent as `text/plain`',
};

const COMMAND_BODIES: Record<CommandBodyKind, string> = {
  empty: '`{}`',
  json: 'the request as JSON',
  'bare-integer': 'a bare JSON integer',
  none: 'no body',
};

function bullet(label: string, lines: string[]): string[] {
  if (lines.length === 0) return [];
  if (lines.length === 1) return [`- ${label}: ${lines[0]}`];
  return [`- ${label}:`, ...lines.map((line) => `  - ${line}`)];
}

function renderEndpoint(name: string, endpoint: EndpointDefinition): string[] {
  const lines = [`### \`${name}\``, '', `\`${endpoint.method} ${endpoint.path}\` — ${endpoint.summary}`, ''];
  const auth = endpoint.auth === 'bearer' ? `\`${AUTH_HEADER}: ${AUTH_SCHEME} <access token>\`` : 'none';
  lines.push(`- Auth: ${auth}`);
  lines.push(...bullet('Path', describeFields(toJsonSchema(endpoint.params, 'input'))));
  if (endpoint.query) lines.push(...bullet('Query', describeFields(toJsonSchema(endpoint.query, 'input'))));
  if (endpoint.body) {
    const body = toJsonSchema(endpoint.body, 'input');
    lines.push(`- Body: ${BODY_ENCODINGS[endpoint.bodyEncoding]}, ${describeShape(body)}`);
  }
  lines.push(`- Answer: ${describeShape(toJsonSchema(endpoint.response, 'output'))}`, '');
  return lines;
}

function renderCommand(command: GatewayCommandDefinition): string[] {
  const lines = [`### \`${command.name}\``, ''];
  const bsp = command.newestBspOnly ? ' Newest BSP only.' : '';
  lines.push(`\`POST /api/gateway/{gatewayId}/command/${command.path}\` — ${summaryOf(command)}${bsp}`, '');
  lines.push(`- Group: ${command.group}; risk: ${command.risk}`);
  const consequence = commandConsequence(command.name as CommandName, english);
  if (consequence) lines.push(`- Asked before running: ${consequence}`);
  const request = toJsonSchema(command.request, 'input');
  const fields = describeFields(request);
  if (fields.length > 0) lines.push(...bullet(`Body (${COMMAND_BODIES[command.bodyKind]})`, fields));
  else if (command.bodyKind === 'empty' || command.bodyKind === 'none') {
    lines.push(`- Body: ${COMMAND_BODIES[command.bodyKind]}`);
  } else lines.push(`- Body: ${COMMAND_BODIES[command.bodyKind]}, ${describeShape(request)}`);
  lines.push(`- Answer: ${describeShape(toJsonSchema(command.response, 'output'))}`, '');
  return lines;
}

function renderCatalogue(commands: GatewayCommandDefinition[]): string[] {
  const lines = ['| Command | Group | Risk | What it does |', '| --- | --- | --- | --- |'];
  const byGroup = [...commands].sort(
    (left, right) => COMMAND_GROUPS.indexOf(left.group) - COMMAND_GROUPS.indexOf(right.group),
  );
  for (const command of byGroup) {
    lines.push(
      `| [\`${command.name}\`](#${command.name.toLowerCase()}) | ${command.group} | ${command.risk} | ${summaryOf(command)} |`,
    );
  }
  return [...lines, ''];
}

/** The whole of docs/api.md, formatted as Prettier formats the repository's Markdown. */
export async function renderApiDoc(): Promise<string> {
  const endpointList = Object.entries(endpoints) as [string, EndpointDefinition][];
  const commandList = Object.values(gatewayCommands) as GatewayCommandDefinition[];
  const lines = [
    '# The OAM API as the app uses it',
    '',
    '<!-- Generated by scripts/generate-api-doc.ts from electron/shared/api: do not edit; run `npm run docs:api`. -->',
    '',
    'The app speaks to an OAM network server (ThingsBoard-based) over HTTPS. Everything it knows about the API is',
    'encoded once in `electron/shared/api/`: a zod schema per record, the endpoint table (`endpoints.ts`), the',
    'gateway command catalogue (`commands.ts`) and the decisions on what the spec leaves open (`assumptions.ts`).',
    'The typed client (`electron/services/api/`), the simulator (`simulator/`) and the conformance tests are all',
    'built from those tables, and this page is generated from them.',
    '',
    'Conventions of every call:',
    '',
    `- Authenticated calls carry \`${AUTH_HEADER}: ${AUTH_SCHEME} <access token>\` (not \`Authorization\`).`,
    '- Every answer is checked against its schema before the app uses it; unknown fields are kept. "any JSON',
    '  (not checked)" below means the app does not rely on that answer\'s shape.',
    "- A request that breaks its schema is refused before it is sent, naming each failing field. The server's",
    '  errors come back as the error body described under "API assumptions".',
    '',
    '## Endpoints',
    '',
    '| Name | Method and path | What it does |',
    '| --- | --- | --- |',
    ...endpointList.map(
      ([name, endpoint]) =>
        `| [\`${name}\`](#${name.toLowerCase()}) | \`${endpoint.method} ${endpoint.path}\` | ${endpoint.summary} |`,
    ),
    '',
    ...endpointList.flatMap(([name, endpoint]) => renderEndpoint(name, endpoint)),
    '## Gateway commands',
    '',
    'Every command is `POST /api/gateway/{gatewayId}/command/<path>` (the `gatewayCommand` endpoint). Risk',
    '`read` changes nothing, `change` changes the configuration, `disruptive` can cut the gateway off or restart',
    'it: the app names the consequence and asks first. A gateway that does not answer in time gives 408.',
    '',
    ...renderCatalogue(commandList),
    ...commandList.flatMap(renderCommand),
    '## API assumptions',
    '',
    'What the spec leaves open is decided once, in `electron/shared/api/assumptions.ts` (`API_ASSUMPTIONS`), so',
    "that a real server that differs needs one change there. The list below is that module's.",
    '',
    ...API_ASSUMPTIONS.map((assumption) => `- **${assumption.topic}.** ${assumption.decision}`),
    '',
  ];
  const config = await resolveConfig(DOC_FILE);
  return format(lines.join('\n'), { ...config, filepath: DOC_FILE });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(DOC_FILE, await renderApiDoc());
  console.log(`Wrote ${API_DOC_PATH}`);
}
