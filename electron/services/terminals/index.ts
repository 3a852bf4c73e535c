export { TerminalManager } from './terminal-manager';
export { MAX_TERMINALS, tooManyTerminalsMessage } from './terminal-limits';
export type { TerminalManagerDependencies, SerialTerminal, SshTerminal } from './terminal-types';
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
