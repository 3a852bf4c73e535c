export {
  FlowController,
  HIGH_WATERMARK_DEFAULT,
  LOW_WATERMARK_DEFAULT,
  type FlowControllerOptions,
} from './flow-controller';
export {
  type TerminalSession,
  type TerminalState,
  type TerminalKind,
  isFinalState,
} from './terminal-session';
export {
  SessionLog,
  SESSION_LOG_PATTERN_DEFAULT,
  formatLogFileName,
  type SessionLogOptions,
} from './session-log';
export { LineTimestamper, formatClockTime } from './line-timestamps';
export { PasswordPromptWatch, PASSWORD_TYPED_MARKER, type MaskedEcho } from './password-prompt';
export { TerminalSessionBase, type SessionFlowOptions } from './terminal-session-base';
