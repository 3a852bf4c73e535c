import { z } from 'zod';
import { HttpV2ConfigurationSchema, MqttV2ConfigurationSchema } from '../../api/integration';

/** Input of `integrations:test`: the configuration as typed in the form, tested from this laptop. */
export const IntegrationTestInputSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('MQTT_V2'),
    configuration: MqttV2ConfigurationSchema,
    /** Also publish one test message to pushTopic (QoS pushQos, never retained). */
    publish: z.boolean().default(false),
  }),
  z.object({ type: z.literal('HTTP_V2'), configuration: HttpV2ConfigurationSchema }),
]);

/** What a laptop test reports: success, one sentence, the steps in words; never a secret. */
export const IntegrationTestOutcomeSchema = z.object({
  ok: z.boolean(),
  summary: z.string(),
  steps: z.array(z.string()),
  durationMs: z.number(),
});
/** What a laptop test reports. */
export type IntegrationTestOutcome = z.infer<typeof IntegrationTestOutcomeSchema>;

/** Channels of the integrations domain: name → zod input and output. Spread into the contract (contract.ts). */
export const integrationsChannels = {
  'integrations:test': { input: IntegrationTestInputSchema, output: IntegrationTestOutcomeSchema },
} as const satisfies Record<string, { input: z.ZodType; output: z.ZodType }>;

/** Events of the integrations domain: name → zod payload. Spread into the contract's events (contract.ts). */
export const integrationsEvents = {} as const satisfies Record<string, z.ZodType>;
