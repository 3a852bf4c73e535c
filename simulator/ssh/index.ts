export {
  createSshWorld,
  createGatewayShell,
  type SshWorld,
  type SshWorldOptions,
  type SshWorldGateway,
} from './ssh-world';
export { deriveHostKey, fingerprintOf, type HostKey } from './host-keys';
export { SshRelay, DEFAULT_PERMITTED_PORTS, type PortRange } from './relay';
export { GatewaySshd, GATEWAY_USER } from './gateway-sshd';
export { ReverseTunnelRequestSchema, parseTunnelOptions, ALLOWED_TUNNEL_OPTIONS } from './reverse-tunnel';
export { startSshWorldProcess, type SshWorldProcess } from './world-process';
