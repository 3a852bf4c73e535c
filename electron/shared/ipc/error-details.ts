import { z } from 'zod';
import { WizardGuardSchema, type WizardGuard } from './domains/risk';
import type { InputIssue } from './result';

// `details` of an IPC error is `unknown` on the wire: each known shape has a schema here and a reader that
// answers a typed value, or nothing when the details have another shape (an error without them is common).

/** Details of a refusal that lists the lockouts to type first (a risky change without its confirmation). */
export const GuardsDetailsSchema = z.looseObject({ guards: z.array(WizardGuardSchema) });

/** Details of a refused edit or change that lists its problems in words. */
export const ProblemsDetailsSchema = z.looseObject({ problems: z.array(z.string()) });

/** Details that name a machine-readable reason (terminal errors: TERMINAL_ERROR_REASONS). */
export const ReasonDetailsSchema = z.looseObject({ reason: z.string() });

/** Details of an API_ERROR: the HTTP status the server answered (null when it sent no status). */
export const HttpStatusDetailsSchema = z.looseObject({ status: z.number().nullable() });

/** Details of an INVALID_INPUT that lists each failing field as a path and a message. */
export const InputIssuesDetailsSchema = z.array(z.object({ path: z.string(), message: z.string() }));

/** The lockouts an error asks to be typed, or none. */
export function readGuards(details: unknown): WizardGuard[] {
  return GuardsDetailsSchema.safeParse(details).data?.guards ?? [];
}

/** The problems an error lists in words, or none. */
export function readProblems(details: unknown): string[] {
  return ProblemsDetailsSchema.safeParse(details).data?.problems ?? [];
}

/** The reason an error names, or undefined. */
export function readReason(details: unknown): string | undefined {
  return ReasonDetailsSchema.safeParse(details).data?.reason;
}

/** The HTTP status an error carries, or undefined. */
export function readHttpStatus(details: unknown): number | undefined {
  return HttpStatusDetailsSchema.safeParse(details).data?.status ?? undefined;
}

/** The failing fields an error lists, or none. */
export function readInputIssues(details: unknown): InputIssue[] {
  return InputIssuesDetailsSchema.safeParse(details).data ?? [];
}
