import { autoDetect } from '@serialport/bindings-cpp';
import type { BindingInterface, PortInfo } from '../../shared/serial/binding-types';
import { parseSerialOpenOptions } from './options';
import { SerialSession } from './serial-session';
import type { ReconnectPolicy } from './serial-port-words';
import { SYSTEM_CLOCK, type Clock } from '../../shared/clock';
import { t } from '../../shared/i18n';

/** How the app labels the in-process demo console (the simulator's demo binding), in the language shown now. */
export function demoPortLabel(): string {
  return t('terminals:serialDemoPort');
}

/** A port as the app lists it. */
export interface SerialPortListing {
  path: string;
  /** What to show: "Demo gateway console", or the manufacturer and path. */
  label: string;
  manufacturer?: string;
  serialNumber?: string;
  vendorId?: string;
  productId?: string;
  isDemo: boolean;
}

/** The listed ports, and why the system's are missing when they could not be listed. */
export interface SerialPortList {
  ports: SerialPortListing[];
  /** Set when the system's ports could not be listed; the demo console and a typed path still work. */
  listError?: string;
}

/** What SerialPorts needs; everything but the clock has a default or is optional. */
export interface SerialPortsDependencies {
  /** The system's ports; default `@serialport/bindings-cpp` autoDetect(). */
  binding?: BindingInterface;
  /** The demo console binding, listed and opened alongside the system's ports when given. */
  demoBinding?: BindingInterface;
  /** The name of the gateway behind the demo console: a demo session's gateway (tab title, log name) unless given. */
  demoGateway?: string;
  /** Default the system clock; times logs, line stamps and every wait of the sessions (reconnect polls among them). */
  clock?: Clock;
  /** Where session logs go; without it sessions are not logged. */
  logsDir?: string;
  reconnect?: Partial<ReconnectPolicy>;
  flow?: { highWatermark?: number; lowWatermark?: number };
}

const present = (value: string | undefined) => (value && value.trim() !== '' ? value : undefined);

function toListing(port: PortInfo, isDemo: boolean): SerialPortListing {
  const manufacturer = present(port.manufacturer);
  return {
    path: port.path,
    label: isDemo ? demoPortLabel() : manufacturer ? `${manufacturer} (${port.path})` : port.path,
    manufacturer,
    serialNumber: present(port.serialNumber),
    vendorId: present(port.vendorId)?.toLowerCase(),
    productId: present(port.productId)?.toLowerCase(),
    isDemo,
  };
}

function describeListFailure(error: unknown): string {
  const { code, path, message } = (error ?? {}) as { code?: string; path?: string; message?: string };
  const cause =
    code === 'ENOENT' && path === 'udevadm' ? t('terminals:udevadmMissing') : (message ?? String(error));
  return t('terminals:portsNotListed', { reason: cause });
}

/** Lists, opens and watches serial ports; reopens a port when its USB adapter comes back. */
export class SerialPorts {
  readonly #binding: BindingInterface;
  readonly #dependencies: SerialPortsDependencies;
  readonly #sessions = new Set<SerialSession>();

  constructor(dependencies: SerialPortsDependencies = {}) {
    this.#dependencies = dependencies;
    this.#binding = dependencies.binding ?? (autoDetect() as unknown as BindingInterface);
  }

  /**
   * The system's ports with VID/PID, serial number and manufacturer, then the demo console when enabled. When the
   * system cannot list its ports (Linux lists them with udevadm, absent from minimal installs), the demo console is
   * still listed and `listError` says why the others are missing.
   */
  async list(): Promise<SerialPortList> {
    let listError: string | undefined;
    const [systemPorts, demoPorts] = await Promise.all([
      this.#binding.list().catch((error: unknown) => {
        listError = describeListFailure(error);
        return [];
      }),
      this.#dependencies.demoBinding?.list() ?? Promise.resolve([]),
    ]);
    return {
      ports: [
        ...systemPorts
          .map((port) => toListing(port, false))
          .sort((left, right) => left.path.localeCompare(right.path)),
        ...demoPorts.map((port) => toListing(port, true)),
      ],
      listError,
    };
  }

  /**
   * Validates the options (every problem named, see SerialOptionsError), opens the port and resolves with the open
   * session; rejects with a plain message when the port cannot be opened. A typed path that is not listed is
   * opened as is.
   */
  async open(input: unknown): Promise<SerialSession> {
    const parsed = parseSerialOpenOptions(input);
    const demoPorts = (await this.#dependencies.demoBinding?.list()) ?? [];
    const isDemo = demoPorts.some((port) => port.path === parsed.path);
    const { demoGateway } = this.#dependencies;
    const options = isDemo && !parsed.gateway && demoGateway ? { ...parsed, gateway: demoGateway } : parsed;
    const binding = isDemo ? this.#dependencies.demoBinding! : this.#binding;
    const listed = (isDemo ? demoPorts : await this.#binding.list().catch(() => [])).find(
      (port) => port.path === options.path,
    );
    const session = new SerialSession(
      options,
      {
        path: options.path,
        serialNumber: present(listed?.serialNumber),
        vendorId: present(listed?.vendorId),
        productId: present(listed?.productId),
      },
      {
        binding,
        clock: this.#dependencies.clock ?? SYSTEM_CLOCK,
        logsDir: this.#dependencies.logsDir,
        reconnect: this.#dependencies.reconnect,
        flow: this.#dependencies.flow,
      },
    );
    await session.start();
    this.#sessions.add(session);
    session.on('closed', () => this.#sessions.delete(session));
    return session;
  }

  /** Sessions opened here and not yet closed. */
  get sessions(): SerialSession[] {
    return [...this.#sessions];
  }

  /** Closes every session (app quit): all ports are freed. */
  async closeAll(): Promise<void> {
    await Promise.all([...this.#sessions].map((session) => session.close()));
  }
}
