import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { gatewayCommands, isCommandName } from '../electron/shared/api/commands';
import { ENDPOINT_NAMES, endpoints, type EndpointName } from '../electron/shared/api/endpoints';
import { ERROR_CODES, type ApiErrorBody, type ErrorCode } from '../electron/shared/api/errors';
import { decodeQuery } from '../electron/shared/api/query';
import { SYSTEM_CLOCK } from '../electron/shared/clock';
import { parseOrThrow, SimulatorError } from './failure';
import { NO_BODY } from './gateways/fleet';
import { Random } from './random';
import { RawJson } from './records';
import { createRouteHandlers, type RouteInput } from './routes';
import type { World } from './world';

/** Faults the server injects into every request. */
export interface FaultOptions {
  /** Extra wait before each request is handled (real time). */
  latencyMs: number;
  /** Fraction of requests (0 to 1) answered 503 with errorCode 2, chosen by a PRNG seeded from `seed`. */
  failRate: number;
  /** Fraction of requests (0 to 1) whose connection is cut without an answer, chosen the same way. */
  dropRate: number;
  /**
   * Fraction of gateway commands that change the gateway (catalogue risk `change` or `disruptive`) which are
   * carried out and then have their connection cut without an answer: "applied, answer lost". Reads are never
   * cut this way (there is nothing to apply), nor are the other endpoints.
   */
  dropAfterRate?: number;
  seed: number;
}

/** A gateway command the simulator carried out, as a test's hook sees it before the answer goes back. */
export interface HeldCommand {
  gatewayId: string;
  command: string;
  /** Aborted when the client goes away before the answer (it cancelled, timed out or died). */
  signal: AbortSignal;
}

/** In-process hooks a test passes to see and shape the traffic. */
export interface ServerHooks {
  /**
   * Called once a gateway command is carried out, before its answer is sent; the answer waits for the promise
   * it returns. A test holds answers this way (a slow link, a late gateway) and learns through `signal` that the
   * client aborted the request.
   */
  beforeCommandAnswer?: (command: HeldCommand) => Promise<void> | void;
}

const NEVER_ABORTED = new AbortController().signal;
const JSON_TYPE = 'application/json; charset=utf-8';

/** Largest request body accepted (1 MiB); a larger one is a 413 with the error body. */
export const BODY_LIMIT_BYTES = 1_048_576;

/**
 * Builds the Fastify app: one route per endpoint of the table, every part of a request parsed by the table's
 * schemas (path and query: 400 errorCode 31; body: 400 errorCode 30; malformed JSON: 400 errorCode 31), bodies
 * read as JSON text whatever their Content-Type (text/plain for the auth calls, application/json elsewhere),
 * and every failure answered with the error body `{ status, message, errorCode, timestamp }`.
 */
export function createServer(world: World, faults: FaultOptions, hooks: ServerHooks = {}): FastifyInstance {
  const sendError = (reply: FastifyReply, status: number, errorCode: ErrorCode, message: string) => {
    const body: ApiErrorBody = { status, message, errorCode, timestamp: world.clock.now() };
    return reply.code(status).type(JSON_TYPE).send(body);
  };
  const app = Fastify({
    logger: false,
    bodyLimit: BODY_LIMIT_BYTES,
    routerOptions: { maxParamLength: 1_000 },
    forceCloseConnections: true,
    // A malformed URL (bad percent-encoding) is refused before routing: answer it with the error body too.
    frameworkErrors: (error, _request, reply) => {
      void sendError(reply, error.statusCode ?? 400, ERROR_CODES.BAD_REQUEST_PARAMS, error.message);
    },
  });
  const handlers = createRouteHandlers(world);
  const faultRandom = new Random(faults.seed).fork('faults');
  const dropRandom = new Random(faults.seed).fork('drops');
  const dropAfterRandom = new Random(faults.seed).fork('drops-after');
  const dropAfterRate = faults.dropAfterRate ?? 0;

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  // Without faults there is no hook at all: every request saves an async step.
  if (faults.latencyMs > 0 || faults.failRate > 0 || faults.dropRate > 0) {
    app.addHook('onRequest', async (request, reply) => {
      if (faults.latencyMs > 0) await SYSTEM_CLOCK.sleep(faults.latencyMs);
      if (faults.dropRate > 0 && dropRandom.next() < faults.dropRate) {
        reply.hijack();
        request.raw.socket.destroy();
        return;
      }
      if (faults.failRate > 0 && faultRandom.next() < faults.failRate) {
        return sendError(
          reply,
          503,
          ERROR_CODES.GENERAL,
          'Simulated server failure (--fail-rate): try again',
        );
      }
    });
  }

  app.setErrorHandler((error, _request, reply) => {
    if (error instanceof SimulatorError)
      return sendError(reply, error.status, error.errorCode, error.message);
    const status = (error as { statusCode?: number }).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return sendError(
        reply,
        status,
        ERROR_CODES.BAD_REQUEST_PARAMS,
        error instanceof Error ? error.message : String(error),
      );
    }
    console.error('OAM simulator: unexpected error', error);
    return sendError(reply, 500, ERROR_CODES.GENERAL, 'Internal simulator error');
  });

  app.setNotFoundHandler((request, reply) =>
    sendError(
      reply,
      404,
      ERROR_CODES.ITEM_NOT_FOUND,
      `No endpoint ${request.method} ${request.url.split('?')[0]}`,
    ),
  );

  for (const name of ENDPOINT_NAMES) {
    const definition = endpoints[name];
    app.route({
      method: definition.method,
      url: definition.path.replace(/\{(\w+)\}/g, ':$1'),
      handler: async (request, reply) => {
        const principal =
          definition.auth === 'bearer'
            ? await world.tokens.authenticate(headerValue(request.headers['x-authorization']))
            : null;
        const params = parseOrThrow(
          definition.params,
          request.params,
          'path',
          ERROR_CODES.BAD_REQUEST_PARAMS,
        );
        const query =
          'query' in definition
            ? parseOrThrow(
                definition.query,
                decodeQuery(definition.query, request.query as Record<string, string | string[]>),
                'query',
                ERROR_CODES.BAD_REQUEST_PARAMS,
              )
            : undefined;
        let body: unknown;
        if (definition.bodyEncoding !== 'none') {
          const raw = parseJsonBody(request.body);
          body =
            name === 'gatewayCommand'
              ? raw
              : parseOrThrow(definition.body, raw === NO_BODY ? undefined : raw, 'body');
        }
        // Only a command may wait (for an offline gateway); it stops waiting when its client goes away.
        let signal = NEVER_ABORTED;
        if (name === 'gatewayCommand') {
          const aborted = new AbortController();
          reply.raw.once('close', () => aborted.abort(new Error('client went away')));
          signal = aborted.signal;
        }
        const handler = handlers[name] as (input: RouteInput<EndpointName>) => unknown;
        let result: unknown;
        try {
          result = await handler({ principal, params, query, body, signal } as RouteInput<EndpointName>);
        } catch (error) {
          // The client gave up (cancel, time limit) while the command waited: there is no one to answer.
          if (signal.aborted) return reply.hijack();
          throw error;
        }
        if (name === 'gatewayCommand' && hooks.beforeCommandAnswer) {
          const { gatewayId, command } = params as { gatewayId: string; command: string };
          await hooks.beforeCommandAnswer({ gatewayId, command, signal });
          if (signal.aborted) return reply.hijack();
        }
        if (
          dropAfterRate > 0 &&
          name === 'gatewayCommand' &&
          isWrite((params as { command: string }).command) &&
          dropAfterRandom.next() < dropAfterRate
        ) {
          reply.hijack();
          request.raw.socket.destroy();
          return;
        }
        if (result instanceof RawJson) return reply.code(200).type(JSON_TYPE).send(result.json);
        return reply.code(200).send(result ?? {});
      },
    });
  }
  return app;
}

/** True for a catalogue command that changes the gateway (the only kind --drop-after-rate cuts). */
function isWrite(command: string): boolean {
  return isCommandName(command) && gatewayCommands[command].risk !== 'read';
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The JSON value of a body read as text; NO_BODY when there is none; 400 (errorCode 31) when malformed. */
function parseJsonBody(body: unknown): unknown {
  if (body === undefined || body === null || (typeof body === 'string' && body.trim() === '')) return NO_BODY;
  if (typeof body !== 'string') return body;
  try {
    return JSON.parse(body);
  } catch (error) {
    throw new SimulatorError(
      400,
      ERROR_CODES.BAD_REQUEST_PARAMS,
      `Malformed JSON body: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
