import { z } from 'zod';

/** Every error code a channel may answer with (the IPC wire); the renderer switches on these. */
export const ERROR_CODES = [
  'INVALID_INPUT',
  'UNAUTHENTICATED',
  'SESSION_EXPIRED',
  'FORBIDDEN',
  'NOT_FOUND',
  'API_ERROR',
  'NETWORK',
  'INTERRUPTED',
  'TIMEOUT',
  'CERTIFICATE_UNTRUSTED',
  'INTERNAL',
] as const;

/** One of the IPC error codes. */
export const ErrorCodeSchema = z.enum(ERROR_CODES);
/** One of the IPC error codes. */
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

/** The error half of a Result: a code to switch on, a message a technician can read, optional details. */
export const IpcErrorShapeSchema = z.object({
  code: ErrorCodeSchema,
  message: z.string(),
  details: z.unknown().optional(),
});
/** The error half of a Result. */
export type IpcErrorShape = z.infer<typeof IpcErrorShapeSchema>;

/** What every channel answers: never a thrown error across the boundary. */
export type Result<T = unknown> = { ok: true; value: T } | { ok: false; error: IpcErrorShape };

/** A path-and-message pair describing one failing input field (details of INVALID_INPUT). */
export interface InputIssue {
  path: string;
  message: string;
}

/**
 * An error a handler throws on purpose: the router sends its code, message and details as they are, so the
 * message must be written for the user and must not carry secrets.
 */
export class IpcError extends Error {
  override readonly name = 'IpcError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }

  /** The wire shape of this error. */
  toShape(): IpcErrorShape {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }
}

/** Wraps a value as a success Result. */
export function succeed<T>(value: T): Result<T> {
  return { ok: true, value };
}

/** Wraps an error as a failure Result. */
export function fail(code: ErrorCode, message: string, details?: unknown): Result<never> {
  return { ok: false, error: new IpcError(code, message, details).toShape() };
}

/** Lists every failing path of a zod error as `{ path: 'a.b.0', message }`, root issues with path ''. */
export function listIssues(error: z.ZodError): InputIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
  }));
}
