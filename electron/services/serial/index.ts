export {
  SerialPorts,
  demoPortLabel,
  type SerialPortListing,
  type SerialPortsDependencies,
} from './serial-ports';
export { SerialSession, type SerialSessionDependencies } from './serial-session';
export { RECONNECT_POLICY_DEFAULT, describeOpenError, type ReconnectPolicy } from './serial-port-words';
export {
  SerialOpenOptionsSchema,
  PasteLinesSchema,
  SerialOptionsError,
  parseSerialOpenOptions,
  formatFraming,
  SERIAL_DEFAULTS,
  type SerialOpenOptions,
  type SerialOpenOptionsInput,
  type Parity,
  type FlowControl,
  type TransmitNewline,
  type ReceiveNewline,
} from './options';
export { translateTransmitNewlines, formatLocalEcho, ReceiveNewlineTranslator } from './newline';
export { findReconnectPath, type PortIdentity } from './port-matching';
export type { BindingInterface, BindingPortInterface, PortInfo } from '../../shared/serial/binding-types';
