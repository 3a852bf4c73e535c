import { parseNumberText } from '../../lib/components/number-field';

/** Integration types the form creates. */
export type IntegrationType = 'MQTT_V2' | 'HTTP_V2';

/** The text of every field of the integration form, as typed (numbers stay text until checked). */
export interface IntegrationDraft {
  type: IntegrationType;
  name: string;
  applicationId: string;
  converterId: string;
  allowAllPorts: boolean;
  mqtt: {
    host: string;
    port: string;
    ssl: boolean;
    token: string;
    password: string;
    cleanSession: boolean;
    connectionTimeoutS: string;
    keepAliveIntervalS: string;
    pendingQueueMaxSize: string;
    maxInflight: string;
    pushTopic: string;
    pullTopic: string;
    pushQos: string;
    pushRetained: boolean;
    clientId: string;
    mqttVersion: string;
    autoreconnectIntervalS: string;
    integrationInitializationRetryIntervalS: string;
    pendingQueueOnErrorProcessingRetryIntervalS: string;
    pullQos: string;
    clientPrivateKey: string;
    clientCertificate: string;
    clientKeyPassword: string;
    caCertificate: string;
  };
  http: {
    host: string;
    port: string;
    basePath: string;
    enableHttps: boolean;
    authMethod: string;
    username: string;
    password: string;
    headers: Array<{ key: string; value: string }>;
    sendEmptyPayload: boolean;
    clientPrivateKey: string;
    clientCertificate: string;
    caCertificate: string;
  };
}

/** An empty draft with the spec's defaults (pushQos AT_LEAST_ONCE, authMethod NO_AUTH). */
export function createIntegrationDraft(): IntegrationDraft {
  return {
    type: 'MQTT_V2',
    name: '',
    applicationId: '',
    converterId: '',
    allowAllPorts: true,
    mqtt: {
      host: '',
      port: '1883',
      ssl: false,
      token: '',
      password: '',
      cleanSession: true,
      connectionTimeoutS: '',
      keepAliveIntervalS: '',
      pendingQueueMaxSize: '',
      maxInflight: '',
      pushTopic: '',
      pullTopic: '',
      pushQos: 'AT_LEAST_ONCE',
      pushRetained: false,
      clientId: '',
      mqttVersion: '',
      autoreconnectIntervalS: '',
      integrationInitializationRetryIntervalS: '',
      pendingQueueOnErrorProcessingRetryIntervalS: '',
      pullQos: 'AT_LEAST_ONCE',
      clientPrivateKey: '',
      clientCertificate: '',
      clientKeyPassword: '',
      caCertificate: '',
    },
    http: {
      host: '',
      port: '443',
      basePath: '',
      enableHttps: false,
      authMethod: 'NO_AUTH',
      username: '',
      password: '',
      headers: [],
      sendEmptyPayload: false,
      clientPrivateKey: '',
      clientCertificate: '',
      caCertificate: '',
    },
  };
}

function text(value: string): string | undefined {
  return value.trim() === '' ? undefined : value;
}

function withoutUndefined(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}

/** The configuration object the draft describes (empty optional fields left out), before the schema checks it. */
export function configurationOf(draft: IntegrationDraft): Record<string, unknown> {
  if (draft.type === 'MQTT_V2') {
    const mqtt = draft.mqtt;
    return withoutUndefined({
      host: mqtt.host.trim(),
      port: parseNumberText(mqtt.port),
      ssl: mqtt.ssl,
      token: text(mqtt.token),
      password: text(mqtt.password),
      cleanSession: mqtt.cleanSession,
      connectionTimeoutS: parseNumberText(mqtt.connectionTimeoutS),
      keepAliveIntervalS: parseNumberText(mqtt.keepAliveIntervalS),
      pendingQueueMaxSize: parseNumberText(mqtt.pendingQueueMaxSize),
      maxInflight: parseNumberText(mqtt.maxInflight),
      pushTopic: mqtt.pushTopic,
      pullTopic: text(mqtt.pullTopic),
      pushQos: mqtt.pushQos,
      pushRetained: mqtt.pushRetained,
      clientId: text(mqtt.clientId),
      mqttVersion: text(mqtt.mqttVersion),
      autoreconnectIntervalS: parseNumberText(mqtt.autoreconnectIntervalS),
      integrationInitializationRetryIntervalS: parseNumberText(mqtt.integrationInitializationRetryIntervalS),
      pendingQueueOnErrorProcessingRetryIntervalS: parseNumberText(
        mqtt.pendingQueueOnErrorProcessingRetryIntervalS,
      ),
      pullQos: mqtt.pullQos,
      clientPrivateKey: text(mqtt.clientPrivateKey),
      clientCertificate: text(mqtt.clientCertificate),
      clientKeyPassword: text(mqtt.clientKeyPassword),
      caCertificate: text(mqtt.caCertificate),
    });
  }
  const http = draft.http;
  return withoutUndefined({
    host: http.host.trim(),
    port: parseNumberText(http.port),
    basePath: text(http.basePath),
    enableHttps: http.enableHttps,
    authMethod: http.authMethod,
    username: http.authMethod === 'BASIC_AUTH' ? http.username : undefined,
    password: http.authMethod === 'BASIC_AUTH' ? http.password : undefined,
    headers: http.headers.length > 0 ? http.headers : undefined,
    clientPrivateKey: text(http.clientPrivateKey),
    clientCertificate: text(http.clientCertificate),
    caCertificate: text(http.caCertificate),
  });
}

/** The whole POST /api/integration body the draft describes, before the schema checks it. */
export function integrationOf(draft: IntegrationDraft): Record<string, unknown> {
  return withoutUndefined({
    name: draft.name,
    type: draft.type,
    applicationId: { entityType: 'APPLICATION', id: draft.applicationId.trim() },
    converterId: { entityType: 'CONVERTER', id: draft.converterId.trim() },
    allowAllPorts: draft.allowAllPorts,
    allowPortsArray: [],
    sendEmptyPayload: draft.type === 'HTTP_V2' ? draft.http.sendEmptyPayload : undefined,
    configuration: configurationOf(draft),
  });
}
