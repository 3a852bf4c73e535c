import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import type { HttpV2Configuration, MqttV2Configuration } from '../../shared/api/integration';
import { SYSTEM_CLOCK, type Clock } from '../../shared/clock';
import type { IntegrationTestOutcome } from '../../shared/ipc/domains/integrations';
import { t, type MessageKey } from '../../shared/i18n';

/**
 * The outcome of a test from this laptop, in words (the app's language when the test ran): `ok`, one sentence
 * for the user and the steps taken.
 */
export type LaptopTestOutcome = IntegrationTestOutcome;

/** Longest a laptop test waits when the configuration gives no connectionTimeoutS. */
export const DEFAULT_TEST_TIMEOUT_S = 10;
/** Longest a laptop test ever waits, whatever the configuration says (a technician is waiting). */
export const MAX_TEST_TIMEOUT_S = 60;

const QOS_LEVEL = { AT_MOST_ONCE: 0, AT_LEAST_ONCE: 1, EXACTLY_ONCE: 2 } as const;

/** What the tester needs from outside: a clock, and mqtt.js's connect (injectable for tests). */
export interface LaptopTesterDependencies {
  /** Time, and the timer of a connection that does not answer (default SYSTEM_CLOCK). */
  clock?: Pick<Clock, 'now' | 'setTimeout' | 'clearTimeout'>;
  connectMqtt?: (options: IClientOptions) => MqttClient;
}

/** The message a laptop test publishes or posts: marked as a test so nobody mistakes it for an uplink. */
export function buildTestMessage(sentAt: number): string {
  return JSON.stringify({ fieldKitConnectionTest: true, sentAt: new Date(sentAt).toISOString() });
}

/**
 * Tests an integration's settings from this laptop (not from the server): connects to the MQTT broker or
 * requests the HTTP server with the given settings and reports what happened in words. Never logs or returns
 * a password, token or key.
 */
export class LaptopIntegrationTester {
  private readonly now: () => number;
  private readonly clock: Pick<Clock, 'setTimeout' | 'clearTimeout'>;
  private readonly connectMqtt: (options: IClientOptions) => MqttClient;

  constructor(dependencies: LaptopTesterDependencies = {}) {
    const clock = dependencies.clock ?? SYSTEM_CLOCK;
    this.now = () => clock.now();
    this.clock = clock;
    this.connectMqtt = dependencies.connectMqtt ?? ((options) => mqtt.connect(options));
  }

  /**
   * Connects to the broker (TLS, username = token, password, clientId, version, keep alive, connect timeout as
   * configured) and, when `publish` is set, publishes one test message to pushTopic with pushQos (never
   * retained). With no mqttVersion, tries 3.1.1 and then 3.1 as the server does.
   */
  async testMqtt(
    configuration: MqttV2Configuration,
    options: { publish: boolean },
  ): Promise<LaptopTestOutcome> {
    const started = this.now();
    const steps: string[] = [];
    const versions: Array<3 | 4> =
      configuration.mqttVersion === 'MQTT_VERSION_3_1'
        ? [3]
        : configuration.mqttVersion === 'MQTT_VERSION_3_1_1'
          ? [4]
          : [4, 3];
    const where = `${configuration.ssl ? 'mqtts' : 'mqtt'}://${configuration.host}:${configuration.port}`;
    let failure = '';
    for (const version of versions) {
      const label = version === 4 ? 'MQTT 3.1.1' : 'MQTT 3.1';
      const attempt = await this.connectOnce(configuration, version);
      if (!attempt.client) {
        failure = attempt.reason;
        steps.push(
          t('integrations:laptopStepConnectFailed', { where, version: label, reason: attempt.reason }),
        );
        // Only a refusal of the protocol version is worth retrying with the older one.
        if (!attempt.isVersionRefused) break;
        continue;
      }
      steps.push(t('integrations:laptopStepConnected', { where, version: label }));
      const client = attempt.client;
      try {
        if (!options.publish) {
          return this.finish(true, t('integrations:laptopMqttConnected', { where }), steps, started);
        }
        const qos = QOS_LEVEL[configuration.pushQos ?? 'AT_LEAST_ONCE'];
        const published = await publishOnce(
          client,
          configuration.pushTopic,
          buildTestMessage(this.now()),
          qos,
        );
        if (published) {
          steps.push(t('integrations:laptopStepPublished', { topic: configuration.pushTopic, qos }));
          return this.finish(
            true,
            t('integrations:laptopMqttPublished', { where, topic: configuration.pushTopic }),
            steps,
            started,
          );
        }
        steps.push(t('integrations:laptopStepPublishFailed', { topic: configuration.pushTopic }));
        return this.finish(
          false,
          t('integrations:laptopMqttPublishRefused', { where, topic: configuration.pushTopic }),
          steps,
          started,
        );
      } finally {
        await endClient(client);
      }
    }
    return this.finish(
      false,
      t('integrations:laptopMqttNotConnected', { where, reason: failure }),
      steps,
      started,
    );
  }

  /**
   * POSTs one test message to host:port/basePath (https when the host says so or enableHttps is set) with the
   * configured authentication and headers, and reports the server's answer in words.
   */
  async testHttp(configuration: HttpV2Configuration): Promise<LaptopTestOutcome> {
    const started = this.now();
    const steps: string[] = [];
    const url = httpTargetOf(configuration);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    for (const header of configuration.headers ?? []) headers[header.key] = header.value;
    if (configuration.authMethod === 'BASIC_AUTH') {
      const credentials = `${configuration.username ?? ''}:${configuration.password ?? ''}`;
      headers.authorization = `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}`;
    }
    const body = buildTestMessage(this.now());
    const timeoutMs = DEFAULT_TEST_TIMEOUT_S * 1000;
    const shown = url.toString();
    try {
      const response = await postOnce(url, headers, body, timeoutMs, configuration);
      steps.push(`POST ${shown}: ${response.statusCode} ${response.statusMessage ?? ''}`.trim());
      const status = response.statusCode ?? 0;
      if (status >= 200 && status < 300) {
        return this.finish(
          true,
          t('integrations:laptopHttpAccepted', { url: shown, status }),
          steps,
          started,
        );
      }
      if (status === 401 || status === 403) {
        return this.finish(
          false,
          t('integrations:laptopHttpAuthRefused', { url: shown, status }),
          steps,
          started,
        );
      }
      return this.finish(false, t('integrations:laptopHttpAnswered', { url: shown, status }), steps, started);
    } catch (error) {
      const reason = describeNetworkError(error, timeoutMs / 1000);
      steps.push(`POST ${shown}: ${reason}`);
      return this.finish(
        false,
        t('integrations:laptopHttpUnreachable', { url: shown, reason }),
        steps,
        started,
      );
    }
  }

  private finish(ok: boolean, summary: string, steps: string[], started: number): LaptopTestOutcome {
    return { ok, summary, steps, durationMs: Math.max(0, this.now() - started) };
  }

  private connectOnce(
    configuration: MqttV2Configuration,
    version: 3 | 4,
  ): Promise<
    | { client: MqttClient; reason: ''; isVersionRefused: false }
    | { client: null; reason: string; isVersionRefused: boolean }
  > {
    const timeoutS = Math.min(configuration.connectionTimeoutS ?? DEFAULT_TEST_TIMEOUT_S, MAX_TEST_TIMEOUT_S);
    const options: IClientOptions = {
      host: configuration.host,
      port: configuration.port,
      protocol: configuration.ssl ? 'mqtts' : 'mqtt',
      protocolVersion: version,
      protocolId: version === 3 ? 'MQIsdp' : 'MQTT',
      keepalive: configuration.keepAliveIntervalS ?? 60,
      connectTimeout: timeoutS * 1000,
      reconnectPeriod: 0,
      clean: configuration.cleanSession ?? true,
      ...(configuration.clientId ? { clientId: configuration.clientId } : {}),
      ...(configuration.token ? { username: configuration.token } : {}),
      ...(configuration.password ? { password: configuration.password } : {}),
      ...(configuration.caCertificate ? { ca: configuration.caCertificate } : {}),
      ...(configuration.clientCertificate ? { cert: configuration.clientCertificate } : {}),
      ...(configuration.clientPrivateKey ? { key: configuration.clientPrivateKey } : {}),
      ...(configuration.clientKeyPassword ? { passphrase: configuration.clientKeyPassword } : {}),
    };
    return new Promise((resolve) => {
      const client = this.connectMqtt(options);
      let settled = false;
      const settle = (
        value:
          | { client: MqttClient; reason: ''; isVersionRefused: false }
          | { client: null; reason: string; isVersionRefused: boolean },
      ) => {
        if (settled) return;
        settled = true;
        this.clock.clearTimeout(timer);
        client.removeAllListeners('connect');
        if (!value.client) client.end(true);
        resolve(value);
      };
      // mqtt.js's connectTimeout only covers the wait for CONNACK; this one also covers a TCP connect that hangs.
      const timer = this.clock.setTimeout(
        () =>
          settle({
            client: null,
            reason: t('integrations:laptopReasonNoAnswer', { seconds: timeoutS }),
            isVersionRefused: false,
          }),
        timeoutS * 1000 + 500,
      );
      client.on('connect', () => settle({ client, reason: '', isVersionRefused: false }));
      client.on('error', (error) => {
        const code = (error as { code?: unknown }).code;
        settle({
          client: null,
          reason: describeMqttError(error, timeoutS),
          isVersionRefused: code === 1,
        });
      });
      client.on('close', () =>
        settle({
          client: null,
          reason: t('integrations:laptopReasonBrokerClosed'),
          isVersionRefused: false,
        }),
      );
    });
  }
}

/** The URL an HTTP_V2 laptop test posts to: host (with protocol), port and basePath. */
export function httpTargetOf(configuration: HttpV2Configuration): URL {
  const url = new URL(configuration.host);
  if (configuration.enableHttps) url.protocol = 'https:';
  url.port = String(configuration.port);
  const base = configuration.basePath ?? '';
  url.pathname = joinPath(url.pathname, base);
  return url;
}

function joinPath(left: string, right: string): string {
  const joined = `${left.replace(/\/+$/, '')}/${right.replace(/^\/+/, '')}`;
  return joined === '' ? '/' : joined;
}

function postOnce(
  url: URL,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  configuration: HttpV2Configuration,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const isHttps = url.protocol === 'https:';
    const send = isHttps ? httpsRequest : httpRequest;
    const request = send(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        timeout: timeoutMs,
        ...(isHttps && configuration.caCertificate ? { ca: configuration.caCertificate } : {}),
        ...(isHttps && configuration.clientCertificate ? { cert: configuration.clientCertificate } : {}),
        ...(isHttps && configuration.clientPrivateKey ? { key: configuration.clientPrivateKey } : {}),
      },
      (response) => {
        response.resume();
        response.once('end', () => resolve(response));
        response.once('error', reject);
      },
    );
    request.once('timeout', () =>
      request.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })),
    );
    request.once('error', reject);
    request.end(body);
  });
}

function publishOnce(client: MqttClient, topic: string, message: string, qos: 0 | 1 | 2): Promise<boolean> {
  return new Promise((resolve) => {
    client.publish(topic, message, { qos, retain: false }, (error) => resolve(!error));
  });
}

function endClient(client: MqttClient): Promise<void> {
  return new Promise((resolve) => client.end(false, {}, () => resolve()));
}

const CONNACK_REASONS: Record<number, MessageKey> = {
  1: 'integrations:laptopReasonVersion',
  2: 'integrations:laptopReasonClientId',
  3: 'integrations:laptopReasonUnavailable',
  4: 'integrations:laptopReasonBadCredentials',
  5: 'integrations:laptopReasonNotAuthorized',
  134: 'integrations:laptopReasonBadCredentials',
  135: 'integrations:laptopReasonNotAuthorized',
};

/** An mqtt.js or socket error in a technician's words (the app's current language). */
export function describeMqttError(error: Error, timeoutS: number): string {
  const code = (error as { code?: unknown }).code;
  const connack = typeof code === 'number' ? CONNACK_REASONS[code] : undefined;
  if (connack) return t(connack);
  if (error.message === 'connack timeout')
    return t('integrations:laptopReasonConnackTimeout', { seconds: timeoutS });
  return describeNetworkError(error, timeoutS);
}

/**
 * A socket or TLS error in a technician's words (the app's current language); an error this does not know is
 * passed on as the system wrote it.
 */
export function describeNetworkError(error: unknown, timeoutS: number): string {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  switch (code) {
    case 'ECONNREFUSED':
      return t('integrations:laptopReasonRefused');
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return t('integrations:laptopReasonHostNotFound');
    case 'ETIMEDOUT':
      return t('integrations:laptopReasonNoAnswer', { seconds: timeoutS });
    case 'ECONNRESET':
    case 'EPIPE':
      return t('integrations:laptopReasonReset');
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return t('integrations:laptopReasonUnreachable');
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
      return t('integrations:laptopReasonCertUntrusted');
    case 'CERT_HAS_EXPIRED':
      return t('integrations:laptopReasonCertExpired');
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return t('integrations:laptopReasonCertHostName');
    case 'EPROTO':
    case 'ERR_SSL_WRONG_VERSION_NUMBER':
      return t('integrations:laptopReasonTls');
    default:
      return error instanceof Error ? error.message : t('integrations:laptopReasonFailed');
  }
}
