import {
  CHANNELS,
  contract,
  isChannel,
  type Channel,
  type ChannelOutput,
  type ParsedInput,
} from './contract';
import { IpcError, fail, listIssues, succeed, type Result } from './result';

/** What a handler learns about the call besides its input. */
export interface CallContext {
  channel: Channel;
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
  dispatch(channel: unknown, input: unknown, sender: Sender): Promise<Result>;
}

const INTERNAL_MESSAGE = 'Something went wrong inside Field Kit. The details are in the log.';

/**
 * Builds a router over the contract. Guarantees: an untrusted sender gets FORBIDDEN and no handler runs; a bad
 * input gets INVALID_INPUT listing each failing path and no handler runs; an output that breaks its schema
 * becomes INTERNAL; a thrown error becomes its IpcError, the mapped error, or a generic INTERNAL message.
 * Throws at construction when the handler table and the contract differ.
 */
export function createRouter<Sender>(options: RouterOptions<Sender>): Router<Sender> {
  assertHandlersMatchContract(options.handlers);
  const report = (channel: string, error: unknown): Result => {
    options.onInternalError?.(channel, error);
    return fail('INTERNAL', INTERNAL_MESSAGE);
  };

  return {
    channels: CHANNELS,
    async dispatch(channel, input, sender) {
      let trusted = false;
      try {
        trusted = options.isTrustedSender(sender);
      } catch (error) {
        options.onInternalError?.(String(channel), error);
      }
      if (!trusted) return fail('FORBIDDEN', 'This caller may not use Field Kit channels.');
      if (!isChannel(channel)) {
        return fail('INVALID_INPUT', 'Unknown channel.', [
          { path: '', message: `No channel named ${JSON.stringify(String(channel)).slice(0, 120)}` },
        ]);
      }
      const schemas = contract[channel];
      const parsed = schemas.input.safeParse(input);
      if (!parsed.success) {
        return fail('INVALID_INPUT', 'Some fields are not valid.', listIssues(parsed.error));
      }
      let value: unknown;
      try {
        const handler = options.handlers[channel] as Handler<Channel>;
        value = await handler(parsed.data as ParsedInput<Channel>, { channel });
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
    },
  };
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
