import type { z } from 'zod';
import type { CommandName, gatewayCommands } from '../../electron/shared/api/commands';
import type { ReverseTunnels } from '../tunnels';
import type { GatewayState, GatewayTimings } from './state';

/** What a command handler gets besides its request: the gateway's state, the time, the tunables, the hooks. */
export interface CommandContext {
  state: GatewayState;
  now: number;
  timings: GatewayTimings;
  tunnels?: ReverseTunnels | undefined;
}

/** The validated request of a command, as its catalogue schema outputs it. */
export type ParsedRequest<Name extends CommandName> = z.output<(typeof gatewayCommands)[Name]['request']>;

/** Handlers for some commands of the catalogue, each typed by its request schema. */
export type CommandHandlers<Names extends CommandName> = {
  [Name in Names]: (context: CommandContext, request: ParsedRequest<Name>) => unknown;
};
