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
export {
  SshService,
  TunnelTimeoutError,
  RootPasswordRequiredError,
  REVERSE_SSH_OPTIONS,
  TUNNEL_TIMEOUT_MS,
  FORWARD_TIMEOUT_MS,
  KEEPALIVE_INTERVAL_MS,
  KEEPALIVE_COUNT_MAX,
  DEFAULT_REV_PORT_RANGE,
  type OpenReverseRequest,
  type ReverseSshStep,
  type OpenDirectRequest,
  type RelayEndpoint,
  type SshServiceDependencies,
} from './ssh-service';
