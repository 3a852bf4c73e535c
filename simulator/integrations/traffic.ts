import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import type { Clock } from '../../electron/shared/clock';

/** Time between two simulated uplinks of one stored integration: three a minute. */
export const UPLINK_INTERVAL_MS = 20_000;
/** Downlinks kept per integration (the newest ones). */
const DOWNLINKS_KEPT = 20;
/** Longest wait for one HTTP_V2 post. */
const HTTP_TIMEOUT_MS = 10_000;

const QOS_LEVEL = { AT_MOST_ONCE: 0, AT_LEAST_ONCE: 1, EXACTLY_ONCE: 2 } as const;

/** A device whose uplinks an integration forwards. */
export interface TrafficDevice {
  deviceEUI: string;
  name: string;
}

/** What the traffic needs from the simulator: a clock, an application's devices, and its timing. */
export interface IntegrationTrafficOptions {
  clock: Pick<Clock, 'now'>;
  devicesOf: (applicationId: string) => readonly TrafficDevice[];
  intervalMs?: number;
  /**
   * Which broker or server hosts get simulated traffic. Default: loopback only, so the simulator never sends
   * made-up uplinks to a real broker (and the seeded or sample hosts such as broker.example.com stay quiet).
   */
  isAllowedHost?: (host: string) => boolean;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** True for 127.0.0.1, localhost and ::1: the only hosts simulated traffic goes to by default. */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.has(host.toLowerCase());
}

/** One uplink as the simulator forwards it (the spec does not show the format: an API assumption). */
export interface SimulatedUplink {
  integrationId: string;
  converterId: string;
  deviceEUI: string;
  deviceName: string;
  fPort: number;
  fCnt: number;
  data: string;
  ts: number;
}

/** A downlink the simulator received on an MQTT_V2 integration's pullTopic. */
export interface ReceivedDownlink {
  topic: string;
  payload: string;
  receivedAt: number;
}

interface Carrier {
  stop(): Promise<void>;
  readonly downlinks: ReceivedDownlink[];
}

type StoredRecord = Record<string, unknown> & {
  id: { id: string };
  type: string;
  applicationId: { id: string };
  converterId: { id: string };
  configuration: Record<string, unknown>;
};

/**
 * Carries the traffic of stored integrations as the spec's "Integration traffic" says: MQTT_V2 publishes
 * simulated uplinks to pushTopic with pushQos and pushRetained and subscribes pullTopic for downlinks; HTTP_V2
 * posts uplinks with its authentication and headers. One uplink at once, then one per interval; saving an
 * integration again replaces its carrier; `close()` stops everything.
 */
export class IntegrationTraffic {
  private readonly carriers = new Map<string, Carrier>();
  private isClosed = false;

  constructor(private readonly options: IntegrationTrafficOptions) {}

  /** Starts (or restarts) the traffic of one stored integration record. */
  carry(record: Record<string, unknown>): void {
    if (this.isClosed) return;
    const stored = record as StoredRecord;
    const id = stored.id.id;
    const previous = this.carriers.get(id);
    if (previous) void previous.stop();
    const isAllowed = this.options.isAllowedHost ?? isLoopbackHost;
    const carrier = !isAllowed(hostOf(stored))
      ? null
      : stored.type === 'MQTT_V2'
        ? this.carryMqtt(stored)
        : stored.type === 'HTTP_V2'
          ? this.carryHttp(stored)
          : null;
    if (carrier) this.carriers.set(id, carrier);
    else this.carriers.delete(id);
  }

  /** Downlinks received so far on an integration's pullTopic (newest last). */
  downlinksOf(integrationId: string): readonly ReceivedDownlink[] {
    return this.carriers.get(integrationId)?.downlinks ?? [];
  }

  /** Stops every carrier: timers cleared, MQTT clients ended. */
  async close(): Promise<void> {
    this.isClosed = true;
    const carriers = [...this.carriers.values()];
    this.carriers.clear();
    await Promise.all(carriers.map((carrier) => carrier.stop()));
  }

  /** Ids of the integrations that currently carry traffic. */
  carriedIds(): string[] {
    return [...this.carriers.keys()];
  }

  private uplinkFactory(record: StoredRecord): () => SimulatedUplink {
    const devices = this.options.devicesOf(record.applicationId.id);
    let count = 0;
    return () => {
      const device = devices.length > 0 ? devices[count % devices.length] : undefined;
      count += 1;
      const reading = Buffer.from([0x01, 0x67, (count * 7) & 0xff, 0x20]);
      return {
        integrationId: record.id.id,
        converterId: record.converterId.id,
        deviceEUI: device?.deviceEUI ?? '0000000000000000',
        deviceName: device?.name ?? 'simulated device',
        fPort: 10,
        fCnt: count,
        data: reading.toString('base64'),
        ts: this.options.clock.now(),
      };
    };
  }

  private carryMqtt(record: StoredRecord): Carrier {
    const configuration = record.configuration;
    const nextUplink = this.uplinkFactory(record);
    const downlinks: ReceivedDownlink[] = [];
    const pushTopic = String(configuration.pushTopic);
    const pullTopic = typeof configuration.pullTopic === 'string' ? configuration.pullTopic : '';
    const pushQos = QOS_LEVEL[(configuration.pushQos as keyof typeof QOS_LEVEL) ?? 'AT_LEAST_ONCE'] ?? 1;
    const pullQos = QOS_LEVEL[(configuration.pullQos as keyof typeof QOS_LEVEL) ?? 'AT_LEAST_ONCE'] ?? 1;
    const version = configuration.mqttVersion === 'MQTT_VERSION_3_1' ? 3 : 4;
    const options: IClientOptions = {
      host: String(configuration.host),
      port: Number(configuration.port),
      protocol: configuration.ssl ? 'mqtts' : 'mqtt',
      protocolVersion: version,
      protocolId: version === 3 ? 'MQIsdp' : 'MQTT',
      keepalive: Number(configuration.keepAliveIntervalS ?? 60),
      connectTimeout: Number(configuration.connectionTimeoutS ?? 30) * 1000,
      reconnectPeriod: Number(configuration.autoreconnectIntervalS ?? 5) * 1000,
      clean: configuration.cleanSession !== false,
      ...(typeof configuration.clientId === 'string' ? { clientId: configuration.clientId } : {}),
      ...(typeof configuration.token === 'string' ? { username: configuration.token } : {}),
      ...(typeof configuration.password === 'string' ? { password: configuration.password } : {}),
      ...(typeof configuration.caCertificate === 'string' ? { ca: configuration.caCertificate } : {}),
      ...(typeof configuration.clientCertificate === 'string'
        ? { cert: configuration.clientCertificate }
        : {}),
      ...(typeof configuration.clientPrivateKey === 'string' ? { key: configuration.clientPrivateKey } : {}),
      ...(typeof configuration.clientKeyPassword === 'string'
        ? { passphrase: configuration.clientKeyPassword }
        : {}),
    };
    const client: MqttClient = mqtt.connect(options);
    // A broker that refuses or is away is the integration's problem, not the simulator's: keep quiet and retry.
    client.on('error', () => undefined);
    const publish = () => {
      if (!client.connected) return;
      client.publish(pushTopic, JSON.stringify(nextUplink()), {
        qos: pushQos,
        retain: configuration.pushRetained === true,
      });
    };
    client.on('connect', () => {
      if (pullTopic) client.subscribe(pullTopic, { qos: pullQos });
      publish();
    });
    client.on('message', (topic, payload) => {
      downlinks.push({ topic, payload: payload.toString('utf8'), receivedAt: this.options.clock.now() });
      if (downlinks.length > DOWNLINKS_KEPT) downlinks.shift();
    });
    const timer = setInterval(publish, this.options.intervalMs ?? UPLINK_INTERVAL_MS);
    timer.unref();
    return {
      downlinks,
      stop: () =>
        new Promise<void>((resolve) => {
          clearInterval(timer);
          client.end(true, {}, () => resolve());
        }),
    };
  }

  private carryHttp(record: StoredRecord): Carrier {
    const configuration = record.configuration;
    const nextUplink = this.uplinkFactory(record);
    const url = new URL(String(configuration.host));
    if (configuration.enableHttps === true) url.protocol = 'https:';
    url.port = String(configuration.port);
    const basePath = typeof configuration.basePath === 'string' ? configuration.basePath : '';
    url.pathname = `${url.pathname.replace(/\/+$/, '')}/${basePath.replace(/^\/+/, '')}`;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (Array.isArray(configuration.headers)) {
      for (const header of configuration.headers as Array<{ key: string; value: string }>) {
        headers[header.key] = header.value;
      }
    }
    if (configuration.authMethod === 'BASIC_AUTH') {
      const credentials = `${String(configuration.username ?? '')}:${String(configuration.password ?? '')}`;
      headers.authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
    }
    const pending = new Set<ReturnType<typeof httpRequest>>();
    const post = () => {
      const body = JSON.stringify(nextUplink());
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const request = send(url, {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        timeout: HTTP_TIMEOUT_MS,
        ...(typeof configuration.caCertificate === 'string' ? { ca: configuration.caCertificate } : {}),
        ...(typeof configuration.clientCertificate === 'string'
          ? { cert: configuration.clientCertificate }
          : {}),
        ...(typeof configuration.clientPrivateKey === 'string'
          ? { key: configuration.clientPrivateKey }
          : {}),
      });
      pending.add(request);
      request.on('response', (response) => response.resume());
      request.on('timeout', () => request.destroy());
      request.on('error', () => undefined);
      request.on('close', () => pending.delete(request));
      request.end(body);
    };
    post();
    const timer = setInterval(post, this.options.intervalMs ?? UPLINK_INTERVAL_MS);
    timer.unref();
    return {
      downlinks: [],
      stop: async () => {
        clearInterval(timer);
        for (const request of pending) request.destroy();
      },
    };
  }
}

function hostOf(record: StoredRecord): string {
  const host = String(record.configuration.host ?? '');
  if (record.type !== 'HTTP_V2') return host;
  try {
    return new URL(host).hostname;
  } catch {
    return host;
  }
}
