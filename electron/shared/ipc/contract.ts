import { z } from 'zod';
import { LANGUAGES, PSEUDO_LANGUAGE } from '../i18n/languages';
import { customersChannels, customersEvents } from './domains/customers';
import { acceptanceChannels, acceptanceEvents } from './domains/acceptance';
import { gatewaysChannels, gatewaysEvents } from './domains/gateways';
import { integrationsChannels, integrationsEvents } from './domains/integrations';
import { wizardsChannels, wizardsEvents } from './domains/wizards';
import { tasksChannels, tasksEvents } from './domains/tasks';
import { fleetChannels, fleetEvents } from './domains/fleet';
import { auditChannels } from './domains/audit';
import { reportChannels } from './domains/report';
import { RiskConfirmationSchema } from './domains/risk';
import { sitePackChannels, sitePackEvents } from './domains/site-pack';
import { terminalsChannels, terminalsEvents } from './domains/terminals';
import { visitChannels, visitEvents } from './domains/visit';
import { customerSettingsChannels, customerSettingsEvents } from './domains/customer-settings';
import { runbooksChannels, runbooksEvents } from './domains/runbooks';
import {
  NoticeSchema,
  ProfileDraftSchema,
  ProfileSchema,
  RememberModeSchema,
  SessionSummarySchema,
  Sha256FingerprintSchema,
} from './schemas';

/** Input of a channel that takes none: `undefined`, `null` or `{}` are all accepted. */
export const NoInputSchema = z
  .union([z.undefined(), z.null(), z.object({}).strict()])
  .transform(() => undefined);

const ProfileIdInputSchema = z.object({ id: z.string().min(1) }).strict();

/**
 * Event `server:status`: what a quiet check of an unreachable server found while the app worked without it —
 * `resumed` (the remembered session is back), `reachable` (it answers; sign in) or `unreachable` (checked again
 * later).
 */
export const ServerStatusSchema = z.object({
  profileId: z.string(),
  outcome: z.enum(['resumed', 'reachable', 'unreachable']),
  at: z.number(),
});
/** A result of checking whether the server answers. */
export type ServerStatus = z.infer<typeof ServerStatusSchema>;

/** Output of `app:info`. */
export const AppInfoSchema = z.object({
  version: z.string(),
  mode: z.enum(['electron', 'browser']),
  keychain: z.enum(['os', 'session-only']),
});

/**
 * Input of `app:language`: the language the renderer shows (settings.svelte.ts chose it) and the computer's locale,
 * so main writes its messages and times as the screen does.
 */
export const LanguageInputSchema = z
  .object({
    language: z.enum([...LANGUAGES, PSEUDO_LANGUAGE]),
    systemLocale: z.string().max(64).optional(),
  })
  .strict();

/** Output of `profiles:list`. */
export const ProfileListSchema = z.object({
  profiles: z.array(ProfileSchema),
  selectedId: z.string().nullable(),
});

/** Input of `session:login`; the password is the one secret the renderer ever sends. */
export const LoginInputSchema = z
  .object({
    profileId: z.string().min(1),
    username: z.string().trim().min(1, 'Enter your user name').max(256),
    password: z.string().min(1, 'Enter your password').max(1024),
    remember: RememberModeSchema,
  })
  .strict();

/** Path parameters and query of an API call: scalar values only. */
const ScalarRecordSchema = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));

/**
 * Input of `session:logout`: nothing (sign out, keep the gateways' root passwords) or `{ forgetPasswords: true }`
 * (also remove every root password remembered in the signed-in profile).
 */
export const LogoutInputSchema = z
  .union([z.undefined(), z.null(), z.object({ forgetPasswords: z.boolean().optional() }).strict()])
  .transform((input) => ({ forgetPasswords: input?.forgetPasswords ?? false }));

/** Input of `api:call`: an endpoint of the endpoint table by name, with its parts (validated by the client). */
export const ApiCallInputSchema = z
  .object({
    endpoint: z.string().min(1).max(100),
    params: ScalarRecordSchema.optional(),
    query: z.record(z.string(), z.unknown()).optional(),
    body: z.unknown().optional(),
  })
  .strict();

/**
 * Input of `gateway:command`: a command of the gateway command catalogue by name. A disruptive command is refused
 * without `confirmation.acknowledged`, a firewall that turns SSH or ping off without its typed text.
 */
export const GatewayCommandInputSchema = z
  .object({
    gatewayId: z.string().min(1).max(100),
    command: z.string().min(1).max(100),
    body: z.unknown().optional(),
    confirmation: RiskConfirmationSchema.optional(),
  })
  .strict();

/**
 * Every channel between renderer and main: name → zod input and output. The router registers exactly these,
 * the preload exposes exactly these, the renderer's types derive from them. Add a channel here first.
 */
export const contract = {
  'app:info': { input: NoInputSchema, output: AppInfoSchema },
  'app:notices': { input: NoInputSchema, output: z.object({ notices: z.array(NoticeSchema) }) },
  'app:language': { input: LanguageInputSchema, output: z.null() },
  'profiles:list': { input: NoInputSchema, output: ProfileListSchema },
  'profiles:save': { input: ProfileDraftSchema, output: ProfileSchema },
  'profiles:delete': { input: ProfileIdInputSchema, output: z.null() },
  'profiles:select': { input: ProfileIdInputSchema, output: z.null() },
  'profiles:trust-certificate': {
    input: z.object({ id: z.string().min(1), sha256: Sha256FingerprintSchema }).strict(),
    output: ProfileSchema,
  },
  'session:login': { input: LoginInputSchema, output: SessionSummarySchema },
  'session:resume': {
    input: z.object({ profileId: z.string().min(1) }).strict(),
    output: SessionSummarySchema.nullable(),
  },
  'session:get': { input: NoInputSchema, output: SessionSummarySchema.nullable() },
  /** Checks the server at once (the user asked, the network came back); what the check found, null with no profile. */
  'server:check': { input: NoInputSchema, output: ServerStatusSchema.nullable() },
  'session:logout': { input: LogoutInputSchema, output: z.null() },
  'api:call': { input: ApiCallInputSchema, output: z.unknown() },
  'gateway:command': { input: GatewayCommandInputSchema, output: z.unknown() },
  /**
   * Cancels a long call by its id (a wizard run's or gateway task's `runId`, a fleet or site pack `jobId`): its
   * requests are aborted on the wire. An id of a call that has ended does nothing.
   */
  'call:cancel': { input: z.object({ callId: z.string().min(1).max(200) }).strict(), output: z.null() },
  // Each domain keeps its channels in electron/shared/ipc/domains/<domain>.ts.
  ...gatewaysChannels,
  ...integrationsChannels,
  ...wizardsChannels,
  ...tasksChannels,
  ...fleetChannels,
  ...auditChannels,
  ...reportChannels,
  ...terminalsChannels,
  ...sitePackChannels,
  ...visitChannels,
  ...customerSettingsChannels,
  ...customersChannels,
  ...runbooksChannels,
  ...acceptanceChannels,
} as const satisfies Record<string, { input: z.ZodType; output: z.ZodType }>;

/** Every event main pushes to the renderer: name → zod payload. */
export const events = {
  'session:changed': SessionSummarySchema.nullable(),
  'app:notice': NoticeSchema,
  'server:status': ServerStatusSchema,
  ...gatewaysEvents,
  ...integrationsEvents,
  ...wizardsEvents,
  ...tasksEvents,
  ...fleetEvents,
  ...terminalsEvents,
  ...sitePackEvents,
  ...visitEvents,
  ...customerSettingsEvents,
  ...customersEvents,
  ...runbooksEvents,
  ...acceptanceEvents,
} as const satisfies Record<string, z.ZodType>;

/** A channel name of the contract. */
export type Channel = keyof typeof contract;
/** An event name of the contract. */
export type EventName = keyof typeof events;
/** What a caller passes to a channel (before parsing). */
export type ChannelInput<C extends Channel> = z.input<(typeof contract)[C]['input']>;
/** What a handler receives (after parsing). */
export type ParsedInput<C extends Channel> = z.output<(typeof contract)[C]['input']>;
/** What a channel answers. */
export type ChannelOutput<C extends Channel> = z.output<(typeof contract)[C]['output']>;
/** What an event carries. */
export type EventPayload<E extends EventName> = z.output<(typeof events)[E]>;

/** Every channel name, in contract order. */
export const CHANNELS = Object.keys(contract) as Channel[];

/** True when `name` is a channel of the contract (guards untyped input from a transport). */
export function isChannel(name: unknown): name is Channel {
  return typeof name === 'string' && Object.hasOwn(contract, name);
}
