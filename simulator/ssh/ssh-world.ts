import { GatewayShell } from '../shell/gateway-shell';
import type { ReverseTunnels } from '../tunnels';
import { GatewaySshd, type InteractiveShell, type ShellIo } from './gateway-sshd';
import { deriveHostKey, type HostKey } from './host-keys';
import { SshRelay, type PortRange } from './relay';
import {
  openOpenSshTunnel,
  openSsh2Tunnel,
  ReverseTunnelRequestSchema,
  TUNNEL_CANCELLED_MESSAGE,
  type ReverseTunnel,
} from './reverse-tunnel';

/** A simulated gateway as the SSH side needs it. */
export interface SshWorldGateway {
  id: string;
  hostname: string;
  bspVersion: string;
  rootPassword: string;
}

/** Builds the shell a gateway runs for one SSH session; `onReboot` is the shell's `reboot` command. */
export type GatewayShellFactory = (
  gateway: SshWorldGateway,
  io: ShellIo,
  onReboot: () => void,
) => InteractiveShell;

/** Like a real gateway, the links go down a moment after the shell said goodbye, not before. */
export const REBOOT_SHUTDOWN_DELAY_MS = 250;

/** The default shell: the emulated gateway shell of simulator/shell. */
export const createGatewayShell: GatewayShellFactory = (gateway, io, onReboot) =>
  new GatewayShell(
    { gatewayId: gateway.id, hostname: gateway.hostname, bspVersion: gateway.bspVersion, onReboot },
    io,
  );

/** How the SSH side of the simulator is set up. */
export interface SshWorldOptions {
  seed: string | number;
  relayPort?: number;
  relayUser: string;
  relayPassword: string;
  /** Ports gateways may ask the relay to listen on (default: every unprivileged port). */
  relayPermittedPorts?: PortRange;
  gateways: SshWorldGateway[];
  /** Which client a gateway runs to open its tunnel: ssh2's (default) or the real OpenSSH `ssh -R`. */
  tunnelClient?: 'ssh2' | 'openssh';
  /** The shell behind each gateway's sshd (default: the emulated GatewayShell). */
  createShell?: GatewayShellFactory;
  /** Called after a gateway's shell ran `reboot` (its tunnels and SSH connections are already cut). */
  onReboot?(gatewayId: string): void;
}

/** The relay and the per-gateway sshds, started; `close()` stops everything. */
export interface SshWorld {
  relay: { host: string; port: number; username: string; password: string };
  relayHostKey: HostKey;
  tunnels: ReverseTunnels;
  /** The loopback address of a gateway's own sshd (started on first use), for direct SSH. */
  gatewayAddress(gatewayId: string): Promise<{ host: string; port: number }>;
  /** A gateway's host key (stable for the seed). */
  gatewayHostKey(gatewayId: string): HostKey;
  /** Ports that have a tunnel on the simulator's relay right now. */
  tunnelPorts(): number[];
  /** Fault injection: cuts every connection to the relay. */
  dropRelayConnections(): void;
  /** Fault injection: every current relay connection goes silent without closing. */
  freezeRelayConnections(): void;
  /**
   * Fault injection: the gateway is reflashed: its tunnels and shells end, and its sshd comes back with a new
   * host key (still derived from the seed, and from how many times it was reinstalled).
   */
  reinstallGateway(gatewayId: string): Promise<void>;
  /**
   * Fault injection: someone changed the gateway's root password (its label's no longer works): its tunnels and
   * shells end, and its sshd comes back taking only `password`, with the same host key.
   */
  changeRootPassword(gatewayId: string, password: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts the simulator's SSH relay and prepares one sshd per gateway (started lazily). Host keys are
 * derived from `seed`, so they are the same every run with the same seed.
 */
export async function createSshWorld(options: SshWorldOptions): Promise<SshWorld> {
  const gateways = new Map(options.gateways.map((gateway) => [gateway.id, gateway]));
  const relayHostKey = deriveHostKey(options.seed, 'relay');
  const relay = await SshRelay.start({
    hostKey: relayHostKey,
    username: options.relayUser,
    password: options.relayPassword,
    port: options.relayPort ?? 0,
    ...(options.relayPermittedPorts ? { permittedPorts: options.relayPermittedPorts } : {}),
  });
  const sshds = new Map<string, Promise<GatewaySshd>>();
  const reinstalls = new Map<string, number>();
  const hostKeyOf = (gatewayId: string) => {
    const count = reinstalls.get(gatewayId) ?? 0;
    return deriveHostKey(
      options.seed,
      count === 0 ? `gateway:${gatewayId}` : `gateway:${gatewayId}#${count}`,
    );
  };
  const openTunnels = new Map<string, Set<ReverseTunnel>>();
  /** Root passwords changed by fault injection, by gateway (the others take the fixture's). */
  const rootPasswords = new Map<string, string>();
  /** Tunnels still opening, by gateway: a stop cancels them, and waits until each has given up. */
  const openingTunnels = new Map<string, Set<{ cancel: AbortController; settled: Promise<void> }>>();
  const createShell = options.createShell ?? createGatewayShell;
  const openTunnel = options.tunnelClient === 'openssh' ? openOpenSshTunnel : openSsh2Tunnel;

  const findGateway = (gatewayId: string): SshWorldGateway => {
    const gateway = gateways.get(gatewayId);
    if (!gateway) throw new Error(`unknown gateway ${gatewayId}`);
    return gateway;
  };

  const closeTunnels = async (gatewayId: string): Promise<void> => {
    // A stop that overtook a reverseSsh (or came after it answered 408) still ends the tunnel it asked for.
    const opening = [...(openingTunnels.get(gatewayId) ?? [])];
    for (const { cancel } of opening) cancel.abort();
    await Promise.all(opening.map(({ settled }) => settled));
    const tunnels = [...(openTunnels.get(gatewayId) ?? [])];
    openTunnels.delete(gatewayId);
    await Promise.all(tunnels.map((tunnel) => tunnel.close()));
  };

  const reboot = (gatewayId: string): void => {
    void closeTunnels(gatewayId).then(async () => {
      (await sshds.get(gatewayId))?.dropConnections();
      options.onReboot?.(gatewayId);
    });
  };

  const startSshd = (gatewayId: string): Promise<GatewaySshd> => {
    const existing = sshds.get(gatewayId);
    if (existing) return existing;
    const gateway = findGateway(gatewayId);
    const started = GatewaySshd.start({
      hostKey: hostKeyOf(gateway.id),
      rootPassword: rootPasswords.get(gatewayId) ?? gateway.rootPassword,
      createShell: (io) => {
        // The shell announces the reboot, then exits: cut the links only after its exit went out.
        let isRebooting = false;
        const shellIo: ShellIo = {
          write: (chunk) => io.write(chunk),
          exit: (code) => {
            io.exit(code);
            if (isRebooting) setTimeout(() => reboot(gateway.id), REBOOT_SHUTDOWN_DELAY_MS);
          },
        };
        return createShell(gateway, shellIo, () => {
          isRebooting = true;
        });
      },
    });
    sshds.set(gatewayId, started);
    return started;
  };

  /** Ends a gateway's tunnels and sshd, changes what `change` changes, and lets the next use start it anew. */
  const restartSshd = async (gatewayId: string, change: () => void): Promise<void> => {
    findGateway(gatewayId);
    await closeTunnels(gatewayId);
    const sshd = sshds.get(gatewayId);
    sshds.delete(gatewayId);
    change();
    await (await sshd)?.close();
  };

  const tunnels: ReverseTunnels = {
    async openReverseTunnel(gatewayId, body) {
      findGateway(gatewayId);
      const parsed = ReverseTunnelRequestSchema.safeParse(body);
      if (!parsed.success) {
        const problems = parsed.error.issues.map(
          (issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`,
        );
        throw new Error(`reverseSsh refused: ${problems.join('; ')}`);
      }
      const request = parsed.data;
      const cancel = new AbortController();
      const opening = (async () => {
        const sshd = await startSshd(gatewayId);
        if (cancel.signal.aborted) throw new Error(TUNNEL_CANCELLED_MESSAGE);
        const tunnel = await openTunnel(request, sshd.port, cancel.signal);
        const set = openTunnels.get(gatewayId) ?? new Set();
        set.add(tunnel);
        openTunnels.set(gatewayId, set);
        tunnel.once('closed', () => set.delete(tunnel));
      })();
      const entry = { cancel, settled: opening.catch(() => undefined) };
      const pending = openingTunnels.get(gatewayId) ?? new Set();
      pending.add(entry);
      openingTunnels.set(gatewayId, pending);
      try {
        await opening;
      } finally {
        pending.delete(entry);
      }
    },
    closeTunnels,
  };

  return {
    relay: { host: relay.host, port: relay.port, username: relay.username, password: relay.password },
    relayHostKey,
    tunnels,
    async gatewayAddress(gatewayId) {
      return { host: '127.0.0.1', port: (await startSshd(gatewayId)).port };
    },
    gatewayHostKey: (gatewayId) => hostKeyOf(findGateway(gatewayId).id),
    tunnelPorts: () => relay.tunnelPorts(),
    dropRelayConnections: () => relay.dropConnections(),
    freezeRelayConnections: () => relay.freezeConnections(),
    async reinstallGateway(gatewayId) {
      await restartSshd(gatewayId, () => reinstalls.set(gatewayId, (reinstalls.get(gatewayId) ?? 0) + 1));
    },
    async changeRootPassword(gatewayId, password) {
      await restartSshd(gatewayId, () => rootPasswords.set(gatewayId, password));
    },
    async close() {
      const gatewayIds = new Set([...openTunnels.keys(), ...openingTunnels.keys()]);
      await Promise.all([...gatewayIds].map(closeTunnels));
      await Promise.all([...sshds.values()].map(async (sshd) => (await sshd).close()));
      await relay.close();
    },
  };
}
