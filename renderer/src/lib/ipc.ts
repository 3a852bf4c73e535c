import type { Channel, ChannelInput, ChannelOutput, EventName, Events, Result } from './wire-types';
import type { EndpointAnswer, EndpointName, EndpointRequest } from '../../../electron/shared/api/endpoints';
import type { CommandName, CommandRequest, CommandResponse } from '../../../electron/shared/api/commands';
import type { GatewayTaskAnswer } from '../../../electron/shared/ipc/domains/gateway-task-answers';
import type { WizardName } from '../../../electron/shared/ipc/domains/wizards';
import type { WizardEditOf, WizardStateOf } from '../../../electron/shared/ipc/domains/wizard-shapes';
import type { Transport } from './transport';

// The contract's typed face for the views; how a call reaches main is transport.ts's business.

type InputArguments<C extends Channel> =
  undefined extends ChannelInput<C> ? [input?: ChannelInput<C>] : [input: ChannelInput<C>];

type EndpointArguments<E extends EndpointName> =
  object extends EndpointRequest<E> ? [parts?: EndpointRequest<E>] : [parts: EndpointRequest<E>];

/**
 * The parts of an endpoint call built at run time (a form, a route, a page's filters): the endpoint by name with
 * its path parameters and query, checked against the endpoint's schemas by main. `IpcClient.call` types the parts
 * too where they are known at the call site.
 */
export interface EndpointCallParts<E extends EndpointName = EndpointName> {
  endpoint: E;
  params?: Record<string, string | number | boolean>;
  query?: Record<string, unknown>;
}

/**
 * A gateway command call as the renderer makes it: the command by name with the body it takes (left out only
 * where the command takes none), the gateway, and the technician's confirmation.
 */
export type CommandCall<Name extends CommandName> = Omit<
  ChannelInput<'gateway:command'>,
  'command' | 'body'
> & { command: Name } & (undefined extends CommandRequest<Name>
    ? { body?: CommandRequest<Name> }
    : { body: CommandRequest<Name> });

/** A gateway task run as the renderer asks for it: the task with its arguments, typed by its name. */
export type TaskRun<Task extends ChannelInput<'gateway-task:run'>['task']> = Omit<
  ChannelInput<'gateway-task:run'>,
  'task'
> & { task: Task };

/** The typed face of a transport: channel names, inputs, outputs and events checked against the contract. */
export class IpcClient {
  constructor(readonly transport: Transport) {}

  /** Calls a channel; always resolves, with a Result (never throws across the boundary). */
  invoke<C extends Channel>(channel: C, ...[input]: InputArguments<C>): Promise<Result<ChannelOutput<C>>> {
    return this.transport.invoke(channel, input) as Promise<Result<ChannelOutput<C>>>;
  }

  /**
   * Calls an endpoint of the endpoint table through `api:call`: its parts and its answer are typed from the table.
   * Main validates the parts and the answer against the endpoint's schemas, so the answer is the table's type.
   */
  call<E extends EndpointName>(
    endpoint: E,
    ...[parts]: EndpointArguments<E>
  ): Promise<Result<EndpointAnswer<E>>> {
    return this.transport.invoke('api:call', { endpoint, ...parts }) as Promise<Result<EndpointAnswer<E>>>;
  }

  /**
   * Calls an endpoint through `api:call` with parts built at run time; the answer is typed from the endpoint table
   * (main validates the parts and the answer against the endpoint's schemas, as for `call`).
   */
  callParts<E extends EndpointName>(parts: EndpointCallParts<E>): Promise<Result<EndpointAnswer<E>>> {
    return this.transport.invoke('api:call', parts) as Promise<Result<EndpointAnswer<E>>>;
  }

  /**
   * The last answer of the same read kept on this laptop (`cache:get`), or null. The cache keeps only answers main
   * checked against the endpoint's schema (or a site pack's, checked on import), so it has the table's type.
   */
  cached<E extends EndpointName>(
    parts: EndpointCallParts<E>,
  ): Promise<Result<{ value: EndpointAnswer<E>; asOf: number } | null>> {
    return this.transport.invoke('cache:get', parts) as Promise<
      Result<{ value: EndpointAnswer<E>; asOf: number } | null>
    >;
  }

  /**
   * Runs a gateway command through `gateway:command`: its body and its answer are typed from the command catalogue.
   * Main checks the body against the command's request schema before sending and the gateway's answer against
   * its response schema (an answer that fails it is an error), so the answer is the catalogue's type.
   */
  command<Name extends CommandName>(call: CommandCall<Name>): Promise<Result<CommandResponse<Name>>> {
    return this.transport.invoke('gateway:command', call) as Promise<Result<CommandResponse<Name>>>;
  }

  /**
   * Runs a gateway task through `gateway-task:run`; its value is typed by the task's name from
   * gatewayTaskAnswers, which main's task runners are checked against at compile time.
   */
  runTask<Task extends ChannelInput<'gateway-task:run'>['task']>(
    run: TaskRun<Task>,
  ): Promise<Result<{ runId: string; value: GatewayTaskAnswer<Task['task']> }>> {
    return this.transport.invoke('gateway-task:run', run) as Promise<
      Result<{ runId: string; value: GatewayTaskAnswer<Task['task']> }>
    >;
  }

  /**
   * Reads a wizard run's state and starting edit through `wizard:read`, typed by the wizard the run was started
   * for (`wizard` names it; main's wizard of that name produced both, typed with wizardShapes).
   */
  readWizard<Name extends WizardName>(
    wizard: Name,
    runId: string,
  ): Promise<Result<{ state: WizardStateOf<Name>; edit: WizardEditOf<Name> }>> {
    return this.transport.invoke('wizard:read', { runId }) as Promise<
      Result<{ state: WizardStateOf<Name>; edit: WizardEditOf<Name> }>
    >;
  }

  /** Listens to a pushed event; returns the function that stops listening. */
  on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void {
    return this.transport.on(event, listener as (payload: unknown) => void);
  }
}
