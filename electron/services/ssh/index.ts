export { HostKeyChangedError, HostKeyNotRefusedError } from './host-key-errors';
export { KnownHosts } from './known-hosts';
export { SshSession } from './ssh-session';
export { SshService, type SshServiceDependencies } from './ssh-service';
export { TunnelTimeoutError, RootPasswordRequiredError } from './reverse-tunnel';
