import {
  CHANNELS,
  contract,
  isChannel,
  type Channel,
  type ChannelOutput,
  type ParsedInput,
} from './contract';
import { IpcError, fail, listIssues, succeed, type Result } from './result';
import { t } from '../i18n';

/** What a handler learns about the call besides its input. */
export interface CallContext {
  channel: Channel;
  /**
   * Fires when the caller is gone (the browser host's page closed its WebSocket): work done only for this call's
   * answer — a fleet preview's group expansion — stops. Never fires for a transport that does not say.
   */
  signal?: AbortSignal;
}

/** Serves one channel: receives the parsed input, returns the output or throws (the router maps the error). */
export type Handler<C extends Channel> = (
  input: ParsedInput<C>,
  context: CallContext,
) => Promise<ChannelOutput<C>> | ChannelOutput<C>;

/** One handler per channel of the contract, no more, no less (checked by the type and at runtime). */
export type HandlerTable = { [C in Channel]: Handler<C> };

/** How a transport builds its router. */
export interface RouterOptions<Sender> {
  handlers: HandlerTable;
  /** The transport's check that a call comes from our own frame / an authenticated socket. */
  isTrustedSender: (sender: Sender) => boolean;
  /** Turns a domain error (ApiError, …) into an IpcError; anything it leaves undefined becomes INTERNAL. */
  mapError?: (error: unknown) => IpcError | undefined;
  /** Told about every error that became INTERNAL, with the real cause (for the log, never the wire). */
  onInternalError?: (channel: string, error: unknown) => void;
}

/** Dispatches untrusted calls to handlers; always resolves to a Result, never rejects. */
export interface Router<Sender> {
  readonly channels: readonly Channel[];
  /** `signal`: fires when the caller is gone (CallContext.signal); none: never. */
  dispatch(channel: unknown, input: unknown, sender: Sender, signal?: AbortSignal): Promise<Result>;
}

/** The signal of a caller whose transport never says it is gone. */
const NEVER = new AbortController().signal;

/**
 * The deepest answer a transport is asked to carry. JSON.stringify and Electron's structured clone recurse and
 * overflow the stack somewhere past a few thousand levels; a cycle never ends. Real answers are a dozen deep.
 */
export const MAX_ANSWER_DEPTH = 128;

/**
 * Why `value` cannot cross a transport (too deep, a cycle, a BigInt, a function or a symbol), or undefined when it
 * can. Bounded: it stops at MAX_ANSWER_DEPTH, so it cannot overflow the stack itself.
 */
export function findWireProblem(value: unknown, depth = 0): string | undefined {
  if (depth > MAX_ANSWER_DEPTH) return `nested deeper than ${MAX_ANSWER_DEPTH} levels (or a cycle)`;
  const type = typeof value;
  if (type === 'bigint' || type === 'function' || type === 'symbol') return `holds a ${type}`;
  if (type !== 'object' || value === null || ArrayBuffer.isView(value) || value instanceof Date)
    return undefined;
  const children = Array.isArray(value) ? value : Object.values(value as object);
  for (const child of children) {
    const problem = findWireProblem(child, depth + 1);
    if (problem) return problem;
  }
  return undefined;
}

/** A short, safe description of a channel name from an untrusted caller (any JSON value, any size). */
function describeChannel(channel: unknown): string {
  return typeof channel === 'string'
    ? channel.slice(0, 120)
    : `(a ${channel === null ? 'null' : typeof channel})`;
}

/**
 * Builds a router over the contract. Guarantees: an untrusted sender gets FORBIDDEN and no handler runs; a bad
 * input gets INVALID_INPUT listing each failing path and no handler runs; an output that breaks its schema
 * becomes INTERNAL; a thrown error becomes its IpcError, the mapped error, or a generic INTERNAL message; an answer
 * no transport can carry (findWireProblem) becomes INTERNAL. Total: any JSON value as channel or input resolves.
 * Throws at construction when the handler table and the contract differ.
 */
export function createRouter<Sender>(options: RouterOptions<Sender>): Router<Sender> {
  assertHandlersMatchContract(options.handlers);
  const report = (channel: string, error: unknown): Result => {
    try {
      options.onInternalError?.(channel, error);
    } catch {
      // A failing log must not turn an answer into a rejection.
    }
    return fail('INTERNAL', t('errors:internal'));
  };

  async function dispatchChecked(
    channel: unknown,
    input: unknown,
    sender: Sender,
    signal: AbortSignal,
  ): Promise<Result> {
    let trusted = false;
    try {
      trusted = options.isTrustedSender(sender);
    } catch (error) {
      report(describeChannel(channel), error);
    }
    if (!trusted) return fail('FORBIDDEN', t('errors:callerNotTrusted'));
    if (!isChannel(channel)) {
      return fail('INVALID_INPUT', t('errors:unknownChannel'), [
        {
          path: '',
          message: t('errors:noSuchChannel', { channel: JSON.stringify(describeChannel(channel)) }),
        },
      ]);
    }
    return dispatchTrusted(channel, input, signal);
  }

  return {
    channels: CHANNELS,
    async dispatch(channel, input, sender, signal = NEVER) {
      let result: Result;
      try {
        result = await dispatchChecked(channel, input, sender, signal);
      } catch (error) {
        return report(describeChannel(channel), error);
      }
      const problem = findWireProblem(result);
      if (problem) return report(describeChannel(channel), new Error(`The answer ${problem}.`));
      return result;
    },
  };

  async function dispatchTrusted(channel: Channel, input: unknown, signal: AbortSignal): Promise<Result> {
    const schemas = contract[channel];
    const parsed = schemas.input.safeParse(input);
    if (!parsed.success) {
      return fail('INVALID_INPUT', t('errors:fieldsNotValid'), listIssues(parsed.error));
    }
    let value: unknown;
    try {
      const handler = options.handlers[channel] as Handler<Channel>;
      value = await handler(parsed.data as ParsedInput<Channel>, { channel, signal });
    } catch (error) {
      if (error instanceof IpcError) return { ok: false, error: error.toShape() };
      let mapped: IpcError | undefined;
      try {
        mapped = options.mapError?.(error);
      } catch (mappingError) {
        return report(channel, mappingError);
      }
      if (mapped) return { ok: false, error: mapped.toShape() };
      return report(channel, error);
    }
    const output = schemas.output.safeParse(value);
    if (!output.success) return report(channel, output.error);
    return succeed(output.data);
  }
}

/** Throws when a channel lacks a handler or a handler has no channel. */
export function assertHandlersMatchContract(handlers: Record<string, unknown>): void {
  const registered = Object.keys(handlers);
  const missing = CHANNELS.filter((channel) => typeof handlers[channel] !== 'function');
  const extra = registered.filter((name) => !isChannel(name));
  if (missing.length > 0 || extra.length > 0) {
    throw new Error(
      `IPC handlers differ from the contract: missing [${missing.join(', ')}], extra [${extra.join(', ')}]`,
    );
  }
}
