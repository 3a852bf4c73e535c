import {
  gatewayCommands,
  type CommandName,
  type CommandRequest,
  type CommandResponse,
} from '../../electron/shared/api/commands';
import type { CommandCallOptions, GatewayCommander } from '../../electron/services/commands/command-service';

/** One command as a test double sees it: the request is whatever the engine under test sent. */
interface AnsweredCall {
  gatewayId: string;
  name: CommandName;
  request: unknown;
  options: CommandCallOptions | undefined;
}

/** A command on its way to the commander underneath, which `forward()` sends it to. */
interface InterceptedCall extends AnsweredCall {
  forward(): Promise<unknown>;
}

/**
 * The answer a test gives, checked against the command's response schema as the API client checks the server's
 * (the schemas have no transforms, so the checked answer is the given one): a double cannot feed an engine an
 * answer no server could give.
 */
function checkedAnswer<Name extends CommandName>(name: Name, answer: unknown): CommandResponse<Name> {
  const result = gatewayCommands[name].response.safeParse(answer);
  if (!result.success)
    throw new Error(`The test's answer to ${name} is not one the server gives: ${result.error.message}`);
  return answer as CommandResponse<Name>;
}

/** A GatewayCommander whose answers come from `answer` (thrown errors are the command's failures). */
export function commanderAnswering(answer: (call: AnsweredCall) => unknown): GatewayCommander {
  return {
    async command<Name extends CommandName>(
      gatewayId: string,
      name: Name,
      request?: CommandRequest<Name>,
      options?: CommandCallOptions,
    ): Promise<CommandResponse<Name>> {
      return checkedAnswer(name, await answer({ gatewayId, name, request, options }));
    },
  };
}

/**
 * Routes `commander`'s commands through `intercept` first, in place (so whoever already holds it sees the change):
 * an answer other than `undefined` is the command's answer; `undefined` lets the commander underneath answer.
 */
export function interceptCommands(
  commander: GatewayCommander,
  intercept: (call: InterceptedCall) => unknown,
): void {
  const underlying = commander.command.bind(commander);
  commander.command = async <Name extends CommandName>(
    gatewayId: string,
    name: Name,
    request?: CommandRequest<Name>,
    options?: CommandCallOptions,
  ): Promise<CommandResponse<Name>> => {
    let forwarded: CommandResponse<Name> | undefined;
    const forward = async () => (forwarded = await underlying(gatewayId, name, request, options));
    const answer = await intercept({ gatewayId, name, request, options, forward });
    if (answer === undefined) return underlying(gatewayId, name, request, options);
    if (answer === forwarded) return forwarded;
    return checkedAnswer(name, answer);
  };
}
