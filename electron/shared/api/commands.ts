import type { z } from 'zod';
import type { GatewayCommandDefinition } from './command-definition';
import { diagnosticsCommands } from './command-diagnostics';
import { modemCommands } from './command-modem';
import { networkCommands } from './command-network';
import { softwareCommands } from './command-software';

export {
  COMMAND_GROUPS,
  type CommandBodyKind,
  type CommandGroup,
  type CommandRisk,
  type GatewayCommandDefinition,
} from './command-definition';
export * from './command-records';

/** Every gateway command of the spec, keyed by name, in the spec's order (each group in its own file). */
export const gatewayCommands = {
  ...diagnosticsCommands,
  ...softwareCommands,
  ...modemCommands,
  ...networkCommands,
} satisfies Record<string, GatewayCommandDefinition>;

/** Name of a command in the catalogue. */
export type CommandName = keyof typeof gatewayCommands;
/** Names of every command, in catalogue order. */
export const COMMAND_NAMES = Object.keys(gatewayCommands) as CommandName[];
/** The request a command takes (what the caller passes before encoding). */
export type CommandRequest<Name extends CommandName> = z.input<(typeof gatewayCommands)[Name]['request']>;
/** The answer a command gives, once validated. */
export type CommandResponse<Name extends CommandName> = z.infer<(typeof gatewayCommands)[Name]['response']>;

/** True when `name` is a command of the catalogue. */
export function isCommandName(name: string): name is CommandName {
  return Object.hasOwn(gatewayCommands, name);
}

/** True when `request` is what command `name` takes: checked against the command's request schema. */
export function isCommandRequest<Name extends CommandName>(
  name: Name,
  request: unknown,
): request is CommandRequest<Name> {
  return gatewayCommands[name].request.safeParse(request).success;
}

/** The body to send for a command, as JSON text or undefined for no body. */
export function encodeCommandBody(
  definition: GatewayCommandDefinition,
  request: unknown,
): string | undefined {
  switch (definition.bodyKind) {
    case 'none':
      return undefined;
    case 'empty':
      return '{}';
    default:
      return JSON.stringify(request);
  }
}
