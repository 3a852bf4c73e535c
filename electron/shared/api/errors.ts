import { z } from 'zod';

/** ThingsBoard's errorCode values (API assumption "Error body"). */
export const ERROR_CODES = {
  GENERAL: 2,
  AUTHENTICATION_FAILED: 10,
  ACCESS_TOKEN_EXPIRED: 11,
  CREDENTIALS_EXPIRED: 15,
  PERMISSION_DENIED: 20,
  INVALID_ARGUMENTS: 30,
  BAD_REQUEST_PARAMS: 31,
  ITEM_NOT_FOUND: 32,
  TOO_MANY_REQUESTS: 33,
} as const;
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/** The error body every failing call answers: `{ status, message, errorCode, timestamp }`. */
export const ApiErrorBodySchema = z.looseObject({
  status: z.int(),
  message: z.string(),
  errorCode: z.int(),
  timestamp: z.int(),
});
export type ApiErrorBody = z.infer<typeof ApiErrorBodySchema>;
