import { z } from 'zod';
import { AuthUserSchema, LoginRequestSchema, RefreshRequestSchema, TokenPairSchema } from './auth';
import { COMMAND_NAMES } from './commands';
import { pageSchema } from './common';
import { CustomerSaveSchema, CustomerSchema } from './customer';
import { DeviceListQuerySchema, DeviceListSchema } from './device';
import {
  EnhancedEventQuerySchema,
  EnhancedEventSchema,
  EntityEventParamsSchema,
  EntityEventQuerySchema,
  RaisedEventQuerySchema,
} from './events';
import { GatewayListQuerySchema, GatewaySchema } from './gateway';
import { IntegrationSchema } from './integration';
import {
  NetworkSettingsParamsSchema,
  NetworkSettingsSchema,
  NetworkSettingsWriteSchema,
} from './network-settings';
import {
  AggregatedPerformanceQuerySchema,
  PerformanceQuerySchema,
  PerformanceSampleSchema,
  SeriesParamsSchema,
} from './performance';

/**
 * How a body travels: `json` = application/json; `text-json` = JSON text with Content-Type text/plain (the two
 * auth calls); `none` = no body.
 */
export type BodyEncoding = 'none' | 'json' | 'text-json';

/** One endpoint of the API: everything the client needs to send it and the simulator needs to serve it. */
export interface EndpointDefinition {
  method: 'GET' | 'POST';
  /** Path with `{name}` placeholders for the params. */
  path: string;
  params: z.ZodObject;
  query?: z.ZodType;
  body?: z.ZodType;
  bodyEncoding: BodyEncoding;
  response: z.ZodType;
  /** `bearer`: X-Authorization: Bearer <access token>. */
  auth: 'none' | 'bearer';
  summary: string;
}

const id = (name: string) => z.string(`${name} is required`).min(1, `${name} must not be empty`);
const NO_PARAMS = z.object({});

/** Every endpoint of the spec, plus GET /api/auth/user, keyed by the name the app calls it by. */
export const endpoints = {
  login: {
    method: 'POST',
    path: '/api/auth/login',
    params: NO_PARAMS,
    body: LoginRequestSchema,
    bodyEncoding: 'text-json',
    response: TokenPairSchema,
    auth: 'none',
    summary: 'Log in with e-mail and password; returns a token pair.',
  },
  refreshToken: {
    method: 'POST',
    path: '/api/auth/token',
    params: NO_PARAMS,
    body: RefreshRequestSchema,
    bodyEncoding: 'text-json',
    response: TokenPairSchema,
    auth: 'none',
    summary: 'Trade a refresh token for a new token pair (the refresh token rotates).',
  },
  getCurrentUser: {
    method: 'GET',
    path: '/api/auth/user',
    params: NO_PARAMS,
    bodyEncoding: 'none',
    response: AuthUserSchema,
    auth: 'bearer',
    summary: 'The logged-in user (ThingsBoard convention; not in the spec).',
  },
  getCustomer: {
    method: 'GET',
    path: '/api/customer/{customerId}',
    params: z.object({ customerId: id('customerId') }),
    bodyEncoding: 'none',
    response: CustomerSchema,
    auth: 'bearer',
    summary: 'Read a customer.',
  },
  saveCustomer: {
    method: 'POST',
    path: '/api/customer/',
    params: NO_PARAMS,
    body: CustomerSaveSchema,
    bodyEncoding: 'json',
    response: z.unknown(),
    auth: 'bearer',
    summary: 'Save a whole customer record (used for token lifetimes).',
  },
  listCustomerDevices: {
    method: 'GET',
    path: '/api/customer/{customerId}/devices',
    params: z.object({ customerId: id('customerId') }),
    query: DeviceListQuerySchema,
    bodyEncoding: 'none',
    response: DeviceListSchema,
    auth: 'bearer',
    summary: "A customer's devices, optionally only online or offline ones.",
  },
  listSubCustomerDevices: {
    method: 'GET',
    path: '/api/subCustomer/{subCustomerId}/devices',
    params: z.object({ subCustomerId: id('subCustomerId') }),
    query: DeviceListQuerySchema,
    bodyEncoding: 'none',
    response: DeviceListSchema,
    auth: 'bearer',
    summary: "A sub-customer's devices, optionally only online or offline ones.",
  },
  gatewayCommand: {
    method: 'POST',
    path: '/api/gateway/{gatewayId}/command/{command}',
    params: z.object({
      gatewayId: id('gatewayId'),
      command: z.enum(COMMAND_NAMES, { error: 'command must be a command of the catalogue' }),
    }),
    // The body and the answer depend on the command: see gatewayCommands.
    body: z.unknown(),
    bodyEncoding: 'json',
    response: z.unknown(),
    auth: 'bearer',
    summary: 'Run a remote command on a gateway (one path per command of the catalogue).',
  },
  saveNetworkSettings: {
    method: 'POST',
    path: '/api/networkSettings',
    params: NO_PARAMS,
    body: NetworkSettingsWriteSchema,
    bodyEncoding: 'json',
    response: z.unknown(),
    auth: 'bearer',
    summary: 'Save the ADR network settings of an application or a device.',
  },
  getNetworkSettings: {
    method: 'GET',
    path: '/api/networkSettings/{entityType}/{entityId}',
    params: NetworkSettingsParamsSchema,
    bodyEncoding: 'none',
    response: NetworkSettingsSchema,
    auth: 'bearer',
    summary: 'Read the ADR network settings of an application or a device.',
  },
  getGatewayPerformance: {
    method: 'GET',
    path: '/api/gateway/{gatewayId}/performance/{measurement}/{field}',
    params: SeriesParamsSchema.extend({ gatewayId: id('gatewayId') }),
    query: PerformanceQuerySchema,
    bodyEncoding: 'none',
    response: z.array(PerformanceSampleSchema),
    auth: 'bearer',
    summary: 'Performance samples of one gateway.',
  },
  getCustomerPerformance: {
    method: 'GET',
    path: '/api/gatewayPerformance/customer/{customerId}/{measurement}/{field}',
    params: SeriesParamsSchema.extend({ customerId: id('customerId') }),
    query: AggregatedPerformanceQuerySchema,
    bodyEncoding: 'none',
    response: z.array(PerformanceSampleSchema),
    auth: 'bearer',
    summary: "Performance samples of a customer's gateways, tagged.",
  },
  getProviderPerformance: {
    method: 'GET',
    path: '/api/gatewayPerformance/provider/{providerId}/{measurement}/{field}',
    params: SeriesParamsSchema.extend({ providerId: id('providerId') }),
    query: AggregatedPerformanceQuerySchema,
    bodyEncoding: 'none',
    response: z.array(PerformanceSampleSchema),
    auth: 'bearer',
    summary: "Performance samples of a provider's gateways, tagged.",
  },
  getGatewayGroupPerformance: {
    method: 'GET',
    path: '/api/gatewayPerformance/gatewayGroup/{gatewayGroupId}/{measurement}/{field}',
    params: SeriesParamsSchema.extend({ gatewayGroupId: id('gatewayGroupId') }),
    query: AggregatedPerformanceQuerySchema,
    bodyEncoding: 'none',
    response: z.array(PerformanceSampleSchema),
    auth: 'bearer',
    summary: "Performance samples of a gateway group's gateways, tagged.",
  },
  saveIntegration: {
    method: 'POST',
    path: '/api/integration',
    params: NO_PARAMS,
    body: IntegrationSchema,
    bodyEncoding: 'json',
    response: z.unknown(),
    auth: 'bearer',
    summary: 'Create or update an MQTT_V2 or HTTP_V2 integration.',
  },
  listEnhancedEvents: {
    method: 'GET',
    path: '/api/enhancedEvents',
    params: NO_PARAMS,
    query: EnhancedEventQuerySchema,
    bodyEncoding: 'none',
    response: pageSchema(EnhancedEventSchema),
    auth: 'bearer',
    summary: 'Enhanced events matching the filters.',
  },
  listRaisedEnhancedEvents: {
    method: 'GET',
    path: '/api/enhancedEventsRaised',
    params: NO_PARAMS,
    query: RaisedEventQuerySchema,
    bodyEncoding: 'none',
    response: pageSchema(EnhancedEventSchema),
    auth: 'bearer',
    summary: 'Enhanced events in the Raised state matching the filters.',
  },
  listEntityEnhancedEvents: {
    method: 'GET',
    path: '/api/entity/{entityType}/{entityId}/enhancedEvents/{eventType}',
    params: EntityEventParamsSchema,
    query: EntityEventQuerySchema,
    bodyEncoding: 'none',
    response: pageSchema(EnhancedEventSchema),
    auth: 'bearer',
    summary: 'Enhanced events of one gateway, device or integration, by category.',
  },
  listCustomerGateways: {
    method: 'GET',
    path: '/api/v2/customer/{customerId}/gateways',
    params: z.object({ customerId: id('customerId') }),
    query: GatewayListQuerySchema,
    bodyEncoding: 'none',
    response: pageSchema(GatewaySchema),
    auth: 'bearer',
    summary: "A page of a customer's gateways.",
  },
  listGatewayGroupGateways: {
    method: 'GET',
    path: '/api/v2/gatewayGroup/{gatewayGroupId}/gateways',
    params: z.object({ gatewayGroupId: id('gatewayGroupId') }),
    query: GatewayListQuerySchema,
    bodyEncoding: 'none',
    response: pageSchema(GatewaySchema),
    auth: 'bearer',
    summary: "A page of a gateway group's gateways.",
  },
  listProviderGateways: {
    method: 'GET',
    path: '/api/v2/provider/{providerId}/gateways',
    params: z.object({ providerId: id('providerId') }),
    query: GatewayListQuerySchema,
    bodyEncoding: 'none',
    response: pageSchema(GatewaySchema),
    auth: 'bearer',
    summary: "A page of a provider's gateways (a provider user's token).",
  },
} as const satisfies Record<string, EndpointDefinition>;

/** Name of an endpoint of the table. */
export type EndpointName = keyof typeof endpoints;
/** Names of every endpoint, in table order. */
export const ENDPOINT_NAMES = Object.keys(endpoints) as EndpointName[];

type Definition<Name extends EndpointName> = (typeof endpoints)[Name];
type InputOf<Schema> = Schema extends z.ZodType ? z.input<Schema> : undefined;

type ParamsOf<Name extends EndpointName> = z.input<Definition<Name>['params']>;
// An endpoint without path parameters may leave them out: the client reads a missing `params` as `{}`.
type ParamsPart<Name extends EndpointName> =
  Record<string, never> extends ParamsOf<Name> ? { params?: ParamsOf<Name> } : { params: ParamsOf<Name> };

/** What a caller passes for an endpoint: path params, query and body, each typed from the table. */
export type EndpointRequest<Name extends EndpointName> = ParamsPart<Name> & {
  query?: Definition<Name> extends { query: infer Query } ? InputOf<Query> : undefined;
  body?: Definition<Name> extends { body: infer Body } ? InputOf<Body> : undefined;
};
/** What an endpoint answers, once validated. */
export type EndpointResponse<Name extends EndpointName> = z.infer<Definition<Name>['response']>;
/** What an endpoint answers, once validated (the name the renderer's `call` uses). */
export type EndpointAnswer<Name extends EndpointName> = EndpointResponse<Name>;

/** True when `name` is an endpoint of the table. */
export function isEndpointName(name: string): name is EndpointName {
  return Object.hasOwn(endpoints, name);
}

/** Fills a path's `{name}` placeholders, each value URI-encoded. */
export function fillPath(path: string, params: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
}

/** Longest run of percent-decoding applied to a path parameter (`%252e` is `%2e` is `.`). */
const MAX_DECODING_ROUNDS = 4;
const PERCENT_ESCAPE = /%([0-9A-Fa-f]{2})/g;

/**
 * What is wrong with a value for a path segment, or undefined when nothing is. A value that is empty, `.` or
 * `..`, or holds `/` or `\` — as given or once percent-decoded, however many times — could name another
 * endpoint after URL normalisation or on a server that decodes twice (`getCustomer('..')` would be
 * `GET /api/`), so it is refused even though `fillPath` encodes it.
 */
export function describeUnsafePathParameter(value: string): string | undefined {
  let decoded = value;
  for (let round = 0; round <= MAX_DECODING_ROUNDS; round++) {
    if (decoded === '') return 'must not be empty';
    if (decoded === '.' || decoded === '..') return `must not be "${decoded}"`;
    if (decoded.includes('/')) return 'must not contain "/"';
    if (decoded.includes('\\')) return 'must not contain "\\"';
    // Byte by byte, as a lenient server decodes: enough to find the ASCII separators, whatever follows.
    const next = decoded.replace(PERCENT_ESCAPE, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    if (next === decoded) return undefined;
    decoded = next;
  }
  return 'must not be percent-encoded so many times';
}
