export { attachSerialConsole, parseSerialAttachment, type AttachedSerialConsole } from './pty-console';
export { DemoConsoleBinding } from './demo-binding';
