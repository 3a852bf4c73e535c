import { z } from 'zod';

/** A risk acknowledged by typing `confirmationText` after reading `warning`. */
export const WizardGuardSchema = z.object({
  id: z.string(),
  warning: z.string(),
  confirmationText: z.string(),
});
/** A lockout guard. */
export type WizardGuard = z.infer<typeof WizardGuardSchema>;

/**
 * What the technician confirmed before a risky change (checked again in main, never only in the UI): the gateway
 * count they were shown, the yes to the disruptions, and the typed text of each guard by its id.
 */
export const RiskConfirmationSchema = z
  .object({
    gatewayCount: z.int().nonnegative().optional(),
    acknowledged: z.boolean().optional(),
    typed: z.record(z.string().max(100), z.string().max(100)).optional(),
  })
  .strict();
/** What the technician confirmed before a risky change. */
export type RiskConfirmationInput = z.infer<typeof RiskConfirmationSchema>;

/** A change's risk said before anything is sent: its disruptive part in words and the typed guards. */
export const RiskAssessmentSchema = z.object({
  disruptions: z.array(z.string()),
  guards: z.array(WizardGuardSchema),
});
/** A change's risk. */
export type RiskAssessmentView = z.infer<typeof RiskAssessmentSchema>;
