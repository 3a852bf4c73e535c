import { z } from 'zod';
import { EntityReferenceSchema, optionalString } from './common';

/** Body of POST /api/auth/login, sent as JSON text with Content-Type text/plain. */
export const LoginRequestSchema = z.object({
  username: z.string().min(1, 'enter the account e-mail'),
  password: z.string().min(1, 'enter the password'),
});

/** Body of POST /api/auth/token, sent as JSON text with Content-Type text/plain. */
export const RefreshRequestSchema = z.object({
  refreshToken: z.string().min(1, 'refreshToken must not be empty'),
});

/** An access token and a refresh token, as login and refresh return them. */
export const TokenPairSchema = z.looseObject({
  token: z.string().min(1),
  refreshToken: z.string().min(1),
});
export type TokenPair = z.infer<typeof TokenPairSchema>;

/** The claims of an access token (docs/api.md): used for refresh timing and navigation, never for trust. */
export const JwtClaimsSchema = z.looseObject({
  sub: z.string(),
  userId: z.string().optional(),
  scopes: z.array(z.string()).default([]),
  customerId: z.string().nullish(),
  providerId: z.string().nullish(),
  iat: z.number().optional(),
  exp: z.number(),
});
export type JwtClaims = z.infer<typeof JwtClaimsSchema>;

/** GET /api/auth/user: the current user (ThingsBoard convention; not in the spec). */
export const AuthUserSchema = z.looseObject({
  id: EntityReferenceSchema,
  email: z.string(),
  authority: z.string(),
  customerId: EntityReferenceSchema.nullish(),
  providerId: EntityReferenceSchema.nullish(),
  firstName: optionalString,
  lastName: optionalString,
});
export type AuthUser = z.infer<typeof AuthUserSchema>;
