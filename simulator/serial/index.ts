export { SerialConsole, type SerialConsoleGateway, type SerialConsoleOptions } from './serial-console';
export { runConsoleOnPort, type ConsoleOnPort } from './console-port';
export {
  attachSerialConsole,
  parseSerialAttachment,
  type AttachSerialConsoleOptions,
  type AttachedSerialConsole,
} from './pty-console';
export {
  DemoConsoleBinding,
  DemoConsolePort,
  DEMO_CONSOLE_LABEL,
  DEMO_CONSOLE_PATH,
  type DemoConsoleBindingOptions,
} from './demo-binding';
