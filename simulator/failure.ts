import { ERROR_CODES, type ErrorCode } from '../electron/shared/api/errors';
import { describeIssues, summarizeIssues, type FieldIssue } from '../electron/shared/api/validation';
import type { z } from 'zod';

/** A request the simulator refuses: becomes the error body `{ status, message, errorCode, timestamp }`. */
export class SimulatorError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: ErrorCode,
    message: string,
    readonly issues: FieldIssue[] = [],
  ) {
    super(message);
    this.name = 'SimulatorError';
  }
}

/** 400 naming each failing field of a zod error; `where` ("body", "query", "path") starts the message. */
export function invalidRequest(
  error: z.ZodError,
  where: string,
  errorCode: ErrorCode = ERROR_CODES.INVALID_ARGUMENTS,
) {
  const issues = describeIssues(error);
  return new SimulatorError(400, errorCode, `Invalid ${where}: ${summarizeIssues(issues)}`, issues);
}

/** 400 for a refused value (errorCode 30). */
export function badArgument(message: string): SimulatorError {
  return new SimulatorError(400, ERROR_CODES.INVALID_ARGUMENTS, message);
}

/** 404 for an unknown id (errorCode 32). */
export function notFound(message: string): SimulatorError {
  return new SimulatorError(404, ERROR_CODES.ITEM_NOT_FOUND, message);
}

/** 403 outside the caller's scope (errorCode 20). */
export function forbidden(message = 'You do not have permission to access this resource'): SimulatorError {
  return new SimulatorError(403, ERROR_CODES.PERMISSION_DENIED, message);
}

/** 401: missing or invalid credentials (errorCode 10) or an expired token (errorCode 11). */
export function unauthorized(message: string, errorCode: ErrorCode = ERROR_CODES.AUTHENTICATION_FAILED) {
  return new SimulatorError(401, errorCode, message);
}

/** Parses `value` with `schema` or throws the 400 that names each failing field. */
export function parseOrThrow<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
  where: string,
  errorCode: ErrorCode = ERROR_CODES.INVALID_ARGUMENTS,
): z.infer<Schema> {
  const result = schema.safeParse(value);
  if (!result.success) throw invalidRequest(result.error, where, errorCode);
  return result.data;
}
