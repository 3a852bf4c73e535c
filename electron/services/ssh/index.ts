export { HostKeyChangedError, HostKeyNotRefusedError, KnownHostsUnreadableError } from './host-key-errors';
export {
  KnownHosts,
  KnownHostSchema,
  KnownHostsFileSchema,
  HostKeyFingerprintSchema,
  fingerprintHostKey,
  type KnownHost,
  type KnownHostsFile,
  type HostKeyVerdict,
} from './known-hosts';
export {
  SshSession,
  SessionClosedError,
  type SshLink,
  type SshLinkEnd,
  type SshSessionOptions,
} from './ssh-session';
export { SshService, type OpenDirectRequest, type SshServiceDependencies } from './ssh-service';
export {
  ReverseTunnels,
  TunnelTimeoutError,
  RootPasswordRequiredError,
  REVERSE_SSH_OPTIONS,
  TUNNEL_TIMEOUT_MS,
  FORWARD_TIMEOUT_MS,
  DEFAULT_REV_PORT_RANGE,
  type OpenReverseRequest,
  type ReverseSshStep,
  type RelayEndpoint,
  type ReverseTunnelsOptions,
} from './reverse-tunnel';
export {
  SshConnector,
  KEEPALIVE_INTERVAL_MS,
  KEEPALIVE_COUNT_MAX,
  READY_TIMEOUT_MS,
  GATEWAY_USER,
  type SshConnectorOptions,
} from './ssh-connection';
