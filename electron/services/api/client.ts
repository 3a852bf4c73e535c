import type { z } from 'zod';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../../shared/api/timeouts';
import { t } from '../../shared/i18n';
import { SYSTEM_CLOCK, type Clock } from '../../shared/clock';
import {
  ApiErrorBodySchema,
  AUTH_HEADER,
  AUTH_SCHEME,
  describeIssues,
  describeUnsafePathParameter,
  encodeCommandBody,
  encodeQuery,
  endpoints,
  ERROR_CODES,
  fillPath,
  gatewayCommands,
  isNestedDeeperThan,
  MAX_ANSWER_DEPTH,
  type CommandName,
  type CommandRequest,
  type CommandResponse,
  type EndpointDefinition,
  type EndpointName,
  type EndpointRequest,
  type EndpointResponse,
} from '../../shared/api';
import {
  AnswerTooLargeError,
  ApiError,
  ConnectionInterruptedError,
  NetworkError,
  RedirectRefusedError,
  RequestAbortedError,
  RequestValidationError,
  ResponseValidationError,
  TimeoutError,
} from './errors';

export { DEFAULT_REQUEST_TIMEOUT_MS };

/**
 * Longest answer the client reads, in bytes: the largest page of the spec is a few MB, and a longer answer is
 * refused as it streams in (or at once from its Content-Length), so a hostile server cannot fill memory.
 */
export const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

/** The fetch function the client uses (injectable: a pinned-certificate dispatcher, a test double). */
export type Fetch = (input: string, init: RequestInit) => Promise<Response>;

/** How the client reaches its server. */
export interface ApiClientOptions {
  /** Base address, e.g. `https://oam.example.com` (a trailing slash is ignored). */
  baseUrl: string;
  fetch?: Fetch;
  timeoutMs?: number;
  /** The timer of each call's time limit (the app's Clock; default SYSTEM_CLOCK). */
  clock?: Pick<Clock, 'setTimeout' | 'clearTimeout'>;
}

/** Per-call options: the access token (the session adds it), cancellation and a time limit. */
export interface CallOptions {
  accessToken?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
}

interface WireRequest {
  endpoint: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  contentType?: string;
  auth: boolean;
  /** True when the request may change something (a POST endpoint, a command that is not a read). */
  mayChange: boolean;
}

function parseOrThrow<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
  fail: (issues: ReturnType<typeof describeIssues>) => Error,
  prefix: string,
): z.infer<Schema> {
  const result = schema.safeParse(value);
  if (!result.success) throw fail(describeIssues(result.error, prefix ? [prefix] : []));
  return result.data;
}

/**
 * Checks an answer against its schema and returns the answer as received: the known fields are checked and
 * typed, unknown fields are kept (a newer server's additions reach the UI). Response schemas are plain
 * `z.object`s without transforms, so the checked value and the received one are the same data.
 */
function checkAnswer(schema: z.ZodType, answer: unknown, endpoint: string): unknown {
  // First: a deeper answer would overflow the stack of whatever walks it next (zod, JSON.stringify, IPC).
  if (isNestedDeeperThan(answer, MAX_ANSWER_DEPTH)) {
    throw new ResponseValidationError(endpoint, [
      { path: '(root)', message: t('errors:answerTooDeep', { levels: MAX_ANSWER_DEPTH }) },
    ]);
  }
  const result = schema.safeParse(answer);
  if (!result.success) throw new ResponseValidationError(endpoint, describeIssues(result.error));
  return answer;
}

/** What the client works out once per endpoint instead of on every call. */
interface EndpointPlan {
  /** The names of the path's `{name}` placeholders, in order. */
  placeholders: string[];
  /** The path with its `{name}` placeholders filled, each value URI-encoded (as `fillPath`). */
  fillPath(params: Record<string, string>): string;
  /** True when the query schema accepts an empty query and its output is empty: an absent query is no query. */
  acceptsEmptyQuery: boolean;
}

const plans = new Map<EndpointName, EndpointPlan>();

function planOf(name: EndpointName): EndpointPlan {
  let plan = plans.get(name);
  if (!plan) {
    plan = makePlan(endpoints[name]);
    plans.set(name, plan);
  }
  return plan;
}

function makePlan(definition: EndpointDefinition): EndpointPlan {
  // split() with a capturing group alternates text and placeholder names: ['/api/customer/', 'customerId', '/devices'].
  const pieces = definition.path.split(/\{(\w+)\}/);
  const names = pieces.filter((_, index) => index % 2 === 1);
  const fillPathOf = (params: Record<string, string>) => {
    let path = pieces[0]!;
    for (let index = 1; index < pieces.length; index += 2)
      path += encodeURIComponent(params[pieces[index]!] ?? '') + pieces[index + 1]!;
    return path;
  };
  let acceptsEmptyQuery = false;
  if (definition.query) {
    const empty = definition.query.safeParse({});
    acceptsEmptyQuery = empty.success && encodeQuery(empty.data as Record<string, unknown>) === '';
  }
  return {
    placeholders: names,
    fillPath: fillPathOf,
    acceptsEmptyQuery,
  };
}

/** One issue per path parameter whose value could leave its path segment (describeUnsafePathParameter). */
function checkPathParameters(
  endpoint: string,
  names: readonly string[],
  params: Record<string, string>,
): void {
  const issues = [];
  for (const name of names) {
    const problem = describeUnsafePathParameter(String(params[name] ?? ''));
    if (problem) issues.push({ path: name, message: `${name} ${problem}` });
  }
  if (issues.length > 0) throw new RequestValidationError(endpoint, issues);
}

function isEmptyQuery(query: unknown): boolean {
  if (query === undefined) return true;
  if (typeof query !== 'object' || query === null || Array.isArray(query)) return false;
  for (const key in query) if (Object.hasOwn(query, key)) return false;
  return true;
}

/**
 * A typed client of the OAM API, derived from the endpoint table: it refuses a request that breaks a rule
 * before sending it, validates every answer with zod (unknown fields kept), and throws typed errors naming each
 * failing field.
 */
export class ApiClient {
  readonly baseUrl: string;
  private readonly fetch: Fetch;
  private readonly timeoutMs: number;
  private readonly clock: Pick<Clock, 'setTimeout' | 'clearTimeout'>;

  constructor(options: ApiClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.timeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.clock = options.clock ?? SYSTEM_CLOCK;
  }

  /** Calls one endpoint of the table. */
  async call<Name extends EndpointName>(
    name: Name,
    request: EndpointRequest<Name>,
    options: CallOptions = {},
  ): Promise<EndpointResponse<Name>> {
    const definition: EndpointDefinition = endpoints[name];
    const plan = planOf(name);
    const invalid = (issues: ReturnType<typeof describeIssues>) => new RequestValidationError(name, issues);
    const params = parseOrThrow(definition.params, request.params ?? {}, invalid, '') as Record<
      string,
      string
    >;
    checkPathParameters(name, plan.placeholders, params);
    let search = '';
    if (definition.query) {
      if (!plan.acceptsEmptyQuery || !isEmptyQuery(request.query)) {
        const query = parseOrThrow(definition.query, request.query ?? {}, invalid, 'query');
        search = encodeQuery(query as Record<string, unknown>);
      }
    }
    const body = definition.body ? parseOrThrow(definition.body, request.body, invalid, 'body') : undefined;

    const wire: WireRequest = {
      endpoint: name,
      method: definition.method,
      path: plan.fillPath(params) + (search ? `?${search}` : ''),
      auth: definition.auth === 'bearer',
      mayChange: definition.method !== 'GET',
    };
    if (definition.bodyEncoding !== 'none') {
      wire.body = JSON.stringify(body);
      wire.contentType = definition.bodyEncoding === 'text-json' ? 'text/plain' : 'application/json';
    }
    const answer = await this.send(wire, options);
    return checkAnswer(definition.response, answer, name) as EndpointResponse<Name>;
  }

  /** Runs a gateway command of the catalogue: POST /api/gateway/{gatewayId}/command/<path>. */
  async command<Name extends CommandName>(
    gatewayId: string,
    name: Name,
    request?: CommandRequest<Name>,
    options: CallOptions = {},
  ): Promise<CommandResponse<Name>> {
    const definition = gatewayCommands[name];
    const endpoint = `command ${name}`;
    checkPathParameters(endpoint, ['gatewayId'], { gatewayId });
    const input = request === undefined && definition.bodyKind === 'empty' ? {} : request;
    const validated = parseOrThrow(
      definition.request,
      input,
      (issues) => new RequestValidationError(endpoint, issues),
      '',
    );
    const body = encodeCommandBody(definition, validated);
    const wire: WireRequest = {
      endpoint,
      method: 'POST',
      path: fillPath(endpoints.gatewayCommand.path, { gatewayId, command: definition.path }),
      auth: true,
      mayChange: definition.risk !== 'read',
    };
    if (body !== undefined) {
      wire.body = body;
      wire.contentType = 'application/json';
    }
    const answer = await this.send(wire, options);
    return checkAnswer(definition.response, answer, endpoint) as CommandResponse<Name>;
  }

  private async send(wire: WireRequest, options: CallOptions): Promise<unknown> {
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    // One controller and one timer per call: cheaper than AbortSignal.timeout + AbortSignal.any on a hot path.
    const controller = new AbortController();
    let timedOut = false;
    const timer = this.clock.setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onCallerAbort = () => controller.abort(options.signal?.reason);
    if (options.signal?.aborted) onCallerAbort();
    else options.signal?.addEventListener('abort', onCallerAbort, { once: true });
    const signal = controller.signal;
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (wire.contentType) headers['Content-Type'] = wire.contentType;
    if (wire.auth && options.accessToken) headers[AUTH_HEADER] = `${AUTH_SCHEME} ${options.accessToken}`;

    let response: Response | undefined;
    let text: string;
    try {
      response = await this.fetch(this.baseUrl + wire.path, {
        method: wire.method,
        headers,
        body: wire.body,
        signal,
        // A redirect could carry the access token to another address: it is answered as an error instead.
        redirect: 'manual',
      });
      if (response.status >= 300 && response.status < 400) {
        await response.body?.cancel().catch(() => undefined);
        throw new RedirectRefusedError(
          response.status,
          response.headers.get('location') ?? '',
          wire.endpoint,
        );
      }
      text = await readText(response, wire.endpoint, MAX_ANSWER_BYTES);
    } catch (error) {
      if (error instanceof AnswerTooLargeError || error instanceof RedirectRefusedError) throw error;
      if (options.signal?.aborted) throw new RequestAbortedError(wire.endpoint);
      if (timedOut) throw new TimeoutError(wire.endpoint, timeoutMs);
      const message = describeNetworkFailure(this.baseUrl, error);
      if (isInterruption(error, response !== undefined))
        throw new ConnectionInterruptedError(wire.endpoint, message, {
          cause: error,
          mayChange: wire.mayChange,
        });
      throw new NetworkError(wire.endpoint, message, { cause: error });
    } finally {
      this.clock.clearTimeout(timer);
      options.signal?.removeEventListener('abort', onCallerAbort);
    }
    if (!response.ok) throw toApiError(wire.endpoint, response, text);
    if (text.trim() === '') return undefined;
    try {
      return JSON.parse(text);
    } catch {
      throw new ResponseValidationError(wire.endpoint, [
        { path: '(root)', message: t('errors:answerNotJson') },
      ]);
    }
  }
}

/**
 * Reads an answer's body as text, refusing it (AnswerTooLargeError, the stream cancelled) as soon as its
 * Content-Length or the bytes received pass `maxBytes`: at most `maxBytes` are ever held.
 */
async function readText(response: Response, endpoint: string, maxBytes: number): Promise<string> {
  const body = response.body;
  if (!body) return '';
  const lengthHeader = response.headers.get('content-length');
  const declared = lengthHeader === null ? Number.NaN : Number(lengthHeader);
  if (declared > maxBytes) {
    await body.cancel().catch(() => undefined);
    throw new AnswerTooLargeError(endpoint, maxBytes);
  }
  // HTTP/1.1 ends a body at its Content-Length, so a declared length within the cap bounds it, unless it is
  // compressed (the length counts the compressed bytes: a few KB can inflate to GB).
  const encoding = response.headers.get('content-encoding');
  if (declared >= 0 && (encoding === null || encoding === 'identity')) return response.text();
  const reader = body.getReader();
  // The bytes are kept as they come and decoded once at the end: a refused answer never costs its text too.
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new AnswerTooLargeError(endpoint, maxBytes);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(received);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

function toApiError(endpoint: string, response: Response, text: string): ApiError {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const body = ApiErrorBodySchema.safeParse(parsed);
  if (body.success) return new ApiError(response.status, body.data.errorCode, body.data.message, endpoint);
  const message = text.trim().slice(0, 200) || response.statusText || `HTTP ${response.status}`;
  return new ApiError(response.status, ERROR_CODES.GENERAL, message, endpoint);
}

/** Socket errors meaning the connection was up and then lost (undici's names, and Node's reset). */
const INTERRUPTION_CODES: ReadonlySet<string> = new Set(['ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE']);

/**
 * True when the request had left when the connection was lost: the answer had begun (its body broke off), or the
 * socket was reset or closed by the other side, which undici reports only on a connection it had written to.
 * Refused connections, unknown names and connect timeouts are not: nothing was sent.
 */
function isInterruption(error: unknown, hadAnswer: boolean): boolean {
  if (hadAnswer) return true;
  const cause = (error as { cause?: { code?: string; message?: string } } | undefined)?.cause;
  return INTERRUPTION_CODES.has(cause?.code ?? '') || /other side closed/i.test(cause?.message ?? '');
}

function describeNetworkFailure(baseUrl: string, error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } } | undefined)?.cause;
  const code = cause?.code ?? '';
  if (code === 'ECONNREFUSED') return t('errors:connectionRefused', { address: baseUrl });
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return t('errors:serverNameNotFound', { address: baseUrl });
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET')
    return t('errors:connectionDropped', { address: baseUrl });
  if (
    code.startsWith('CERT_') ||
    code.includes('SELF_SIGNED') ||
    code === 'UNABLE_TO_VERIFY_LEAF_SIGNATURE'
  ) {
    return t('errors:certificateNotTrusted', { address: baseUrl, code });
  }
  return t('errors:serverUnreachable', {
    address: baseUrl,
    reason: cause?.message ?? (error as Error)?.message ?? String(error),
  });
}
