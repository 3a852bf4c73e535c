/** What the reverseSsh command asks a gateway to open (its validated body, minus nothing). */
export interface ReverseTunnelRequest {
  sshHost: string;
  sshPort: number;
  sshRevPort: number;
  username: string;
  password: string;
  options: string;
}

/**
 * The SSH side of the simulator (simulator/ssh/ builds it): opens and closes the reverse tunnels that the
 * reverseSsh / stopReverseSsh commands ask a gateway for. A rejected promise answers the command with 400
 * (or 408 when the error's `name` is 'TimeoutError'), carrying the error's message.
 */
export interface ReverseTunnels {
  /** Opens a reverse tunnel from the gateway's shell to the relay; resolves once it is listening. */
  openReverseTunnel(gatewayId: string, request: ReverseTunnelRequest): Promise<void>;
  /** Closes every reverse tunnel of the gateway (no error when there is none). */
  closeTunnels(gatewayId: string): Promise<void>;
}
