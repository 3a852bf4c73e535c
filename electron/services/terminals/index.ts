export {
  TerminalManager,
  TerminalNotFoundError,
  TooManyTerminalsError,
  MAX_TERMINALS,
  TOO_MANY_TERMINALS_MESSAGE,
  NotSerialSessionError,
  type RecentOutput,
  type TerminalManagerDependencies,
  type TerminalEventSink,
  type SerialTerminal,
  type SshTerminal,
  type ResolvedRelay,
} from './terminal-manager';
export {
  OutputCoalescer,
  DATA_EVENT_INTERVAL_MS,
  DATA_EVENT_MAX_BYTES,
  REPLAY_MAX_BYTES,
  type OutputCoalescerOptions,
} from './output-coalescer';
export { mapTerminalError } from './terminal-errors';
export {
  createRelayResolver,
  legacyRootPasswordAccount,
  relayPasswordAccount,
  RootPasswords,
  rootPasswordsAccount,
  RelayNotConfiguredError,
  type RelayResolverOptions,
} from './terminal-secrets';
export { createAppTerminals, type AppTerminalsOptions } from './app-terminals';
