export {
  TerminalManager,
  MAX_TERMINALS,
  TOO_MANY_TERMINALS_MESSAGE,
  type TerminalManagerDependencies,
  type SerialTerminal,
  type SshTerminal,
} from './terminal-manager';
export { DATA_EVENT_INTERVAL_MS, DATA_EVENT_MAX_BYTES, REPLAY_MAX_BYTES } from './output-coalescer';
export { mapTerminalError } from './terminal-errors';
export {
  createRelayResolver,
  legacyRootPasswordAccount,
  relayPasswordAccount,
  RootPasswords,
  rootPasswordsAccount,
} from './terminal-secrets';
export { createAppTerminals, type AppTerminalsOptions } from './app-terminals';
