import { z } from 'zod';
import { t } from '../i18n';
import { entityReference, HostSchema, PortSchema, spoken } from './common';

/** MQTT quality-of-service levels of pushQos and pullQos. */
export const MQTT_QOS = ['AT_MOST_ONCE', 'AT_LEAST_ONCE', 'EXACTLY_ONCE'] as const;
/** MQTT versions an MQTT_V2 integration may pin; omitted = 3.1.1 first, then 3.1. */
export const MQTT_VERSIONS = ['MQTT_VERSION_3_1', 'MQTT_VERSION_3_1_1'] as const;
/** Longest clientId per MQTT version: 23 for 3.1, 256 for 3.1.1 and 5.0. */
export const MQTT_CLIENT_ID_MAX = { MQTT_VERSION_3_1: 23, MQTT_VERSION_3_1_1: 256 } as const;
/** HTTP_V2 authentication methods. */
export const HTTP_AUTH_METHODS = ['NO_AUTH', 'BASIC_AUTH'] as const;

/** The options of each integration type that are set through the REST API only (shown under "Advanced"). */
export const API_ONLY_OPTIONS = {
  MQTT_V2: [
    'clientId',
    'mqttVersion',
    'autoreconnectIntervalS',
    'integrationInitializationRetryIntervalS',
    'pendingQueueOnErrorProcessingRetryIntervalS',
    'pullQos',
    'clientPrivateKey',
    'clientCertificate',
    'clientKeyPassword',
    'caCertificate',
  ],
  HTTP_V2: ['clientPrivateKey', 'clientCertificate', 'caCertificate'],
} as const;

const PEM = /^-----BEGIN ([A-Z0-9 ]+)-----\r?\n[\s\S]+?\r?\n-----END \1-----\s*$/;

/** A PEM block (certificate or key): BEGIN and END lines of the same label around base64 text. */
export const PemSchema = z.string().refine((value) => PEM.test(value.trim() + '\n'), {
  error: spoken('errors:pemInvalid'),
});

const atLeastOne = (field: string) =>
  z
    .int({ error: spoken('errors:fieldWholeNumber', { field }) })
    .min(1, { error: spoken('errors:fieldAtLeastOne', { field }) });

/** configuration of an MQTT_V2 integration, with every rule of the spec's table. */
export const MqttV2ConfigurationSchema = z
  .looseObject({
    host: z
      .string({ error: spoken('errors:hostRequired') })
      .min(1, { error: spoken('errors:hostRequired') })
      .refine((host) => !/:\d+$/.test(host) || host.split(':').length > 2, {
        error: spoken('errors:hostPortNotAllowed'),
        abort: true,
      })
      .pipe(HostSchema),
    port: PortSchema,
    ssl: z.boolean().optional(),
    token: z.string().optional(),
    password: z.string().optional(),
    clientId: z
      .string()
      .min(1, { error: spoken('errors:clientIdEmpty') })
      .optional(),
    mqttVersion: z
      .enum(MQTT_VERSIONS, { error: 'mqttVersion must be MQTT_VERSION_3_1 or MQTT_VERSION_3_1_1' })
      .optional(),
    cleanSession: z.boolean().optional(),
    connectionTimeoutS: atLeastOne('connectionTimeoutS').optional(),
    keepAliveIntervalS: atLeastOne('keepAliveIntervalS').optional(),
    autoreconnectIntervalS: atLeastOne('autoreconnectIntervalS').optional(),
    integrationInitializationRetryIntervalS: z
      .int({ error: spoken('errors:wholeNumber') })
      .nonnegative()
      .optional(),
    pendingQueueMaxSize: z
      .int({ error: spoken('errors:wholeNumber') })
      .min(1, { error: spoken('errors:rangeFromOne', { max: 10000 }) })
      .max(10000, { error: spoken('errors:rangeFromOne', { max: 10000 }) })
      .optional(),
    pendingQueueOnErrorProcessingRetryIntervalS: atLeastOne(
      'pendingQueueOnErrorProcessingRetryIntervalS',
    ).optional(),
    maxInflight: z
      .int({ error: spoken('errors:wholeNumber') })
      .min(1, { error: spoken('errors:rangeFromOne', { max: 100 }) })
      .max(100, { error: spoken('errors:rangeFromOne', { max: 100 }) })
      .optional(),
    pushTopic: z
      .string({ error: spoken('errors:pushTopicRequired') })
      .trim()
      .min(1, { error: spoken('errors:pushTopicEmpty') }),
    pullTopic: z.string().optional(),
    pushQos: z.enum(MQTT_QOS).default('AT_LEAST_ONCE'),
    pullQos: z.enum(MQTT_QOS).default('AT_LEAST_ONCE'),
    pushRetained: z.boolean().optional(),
    clientPrivateKey: PemSchema.optional(),
    clientCertificate: PemSchema.optional(),
    clientKeyPassword: z.string().optional(),
    caCertificate: PemSchema.optional(),
  })
  .superRefine((configuration, context) => {
    if (configuration.clientId === undefined) return;
    const max = MQTT_CLIENT_ID_MAX[configuration.mqttVersion ?? 'MQTT_VERSION_3_1_1'];
    if (configuration.clientId.length > max) {
      context.addIssue({
        code: 'custom',
        path: ['clientId'],
        message: t('errors:clientIdTooLong', {
          count: max,
          version:
            configuration.mqttVersion === 'MQTT_VERSION_3_1' ? 'MQTT 3.1' : t('errors:mqttVersionsLater'),
        }),
      });
    }
  });
export type MqttV2Configuration = z.infer<typeof MqttV2ConfigurationSchema>;

const HTTP_HOST = /^https?:\/\/([a-zA-Z0-9.-]+|\[[0-9a-fA-F:]+\])(\/[^\s]*)?$/;

/** configuration of an HTTP_V2 integration, with every rule of the spec's table. */
export const HttpV2ConfigurationSchema = z
  .looseObject({
    host: z
      .string({ error: spoken('errors:hostRequired') })
      .min(1, { error: spoken('errors:hostRequired') })
      .refine((host) => /^https?:\/\//.test(host), { error: spoken('errors:httpHostScheme') })
      .refine((host) => HTTP_HOST.test(host), { error: spoken('errors:httpHostPort') }),
    port: PortSchema,
    basePath: z.string().optional(),
    enableHttps: z.boolean().optional(),
    authMethod: z.enum(HTTP_AUTH_METHODS, { error: 'authMethod must be NO_AUTH or BASIC_AUTH' }).optional(),
    username: z.string().optional(),
    password: z.string().optional(),
    headers: z
      .array(
        z.object({
          key: z
            .string()
            .trim()
            .min(1, { error: spoken('errors:headerNameEmpty') }),
          value: z.string(),
        }),
      )
      .optional(),
    clientPrivateKey: PemSchema.optional(),
    clientCertificate: PemSchema.optional(),
    caCertificate: PemSchema.optional(),
  })
  .superRefine((configuration, context) => {
    if (configuration.authMethod !== 'BASIC_AUTH') return;
    for (const field of ['username', 'password'] as const) {
      if (!configuration[field]) {
        context.addIssue({
          code: 'custom',
          path: [field],
          message: t('errors:basicAuthFieldRequired', { field }),
        });
      }
    }
  });
export type HttpV2Configuration = z.infer<typeof HttpV2ConfigurationSchema>;

const integrationFields = {
  id: z.looseObject({ entityType: z.string(), id: z.string() }).nullish(),
  name: z
    .string({ error: spoken('errors:nameRequired') })
    .trim()
    .min(1, { error: spoken('errors:nameEmpty') }),
  applicationId: entityReference('APPLICATION'),
  // The converter must be of version 2: only the server knows a converter's version, so the server checks it
  // and the UI offers only version-2 converters.
  converterId: entityReference('CONVERTER'),
  allowAllPorts: z.boolean().optional(),
  allowPortsArray: z.array(z.int().min(0).max(255)).optional(),
  httpEndpoint: z.string().optional(),
  sendEmptyPayload: z.boolean().optional(),
};

/** An MQTT_V2 integration record. */
export const MqttV2IntegrationSchema = z.looseObject({
  ...integrationFields,
  type: z.literal('MQTT_V2'),
  configuration: MqttV2ConfigurationSchema,
});
/** An HTTP_V2 integration record. */
export const HttpV2IntegrationSchema = z.looseObject({
  ...integrationFields,
  type: z.literal('HTTP_V2'),
  configuration: HttpV2ConfigurationSchema,
});

/** Body of POST /api/integration: an integration of type MQTT_V2 or HTTP_V2. */
export const IntegrationSchema = z.discriminatedUnion(
  'type',
  [MqttV2IntegrationSchema, HttpV2IntegrationSchema],
  {
    error: 'type must be MQTT_V2 or HTTP_V2',
  },
);

/**
 * What the app reads of the answer to POST /api/integration, which the spec does not show: the saved record's id
 * and name where the server gives them (anything else about the answer is ignored).
 */
export const SavedIntegrationSchema = z.looseObject({
  id: z.looseObject({ id: z.string() }).optional().catch(undefined),
  name: z.string().optional().catch(undefined),
});
