import { z } from 'zod';

/** A SHA-256 certificate fingerprint as 64 hex digits, with or without colons between the bytes. */
export const Sha256FingerprintSchema = z
  .string()
  .trim()
  .regex(
    /^(?:[0-9A-Fa-f]{64}|(?:[0-9A-Fa-f]{2}:){31}[0-9A-Fa-f]{2})$/,
    'Expected a SHA-256 fingerprint: 64 hexadecimal digits, optionally colon-separated',
  );

/** Normalises a fingerprint to upper-case, colon-separated bytes (`AB:CD:…`), the form Node and browsers show. */
export function normalizeFingerprint(fingerprint: string): string {
  const hex = fingerprint.replace(/:/g, '').trim().toUpperCase();
  return hex.match(/.{2}/g)?.join(':') ?? hex;
}

/**
 * True for a host name that can only be this computer: `localhost`, an IPv4 address in 127.0.0.0/8 or `[::1]`
 * (as `URL.hostname` writes them).
 */
export function isLoopbackHost(hostname: string): boolean {
  if (hostname === 'localhost' || hostname === '[::1]') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

function parseUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/**
 * An http(s) base URL without credentials, query or fragment (the server's `{base_url}`). Plain `http://` only
 * for a server on this computer (a simulator, a tunnel): anywhere else the password and tokens would cross the
 * network readable and changeable.
 */
export const BaseUrlSchema = z
  .string()
  .trim()
  .min(1, 'Enter the server address')
  .refine((value) => {
    const url = parseUrl(value);
    return (
      url !== undefined &&
      (url.protocol === 'https:' || url.protocol === 'http:') &&
      url.username === '' &&
      url.password === '' &&
      url.search === '' &&
      url.hash === ''
    );
  }, 'Expected an http:// or https:// address without user, query or fragment')
  .refine((value) => {
    const url = parseUrl(value);
    return url?.protocol !== 'http:' || isLoopbackHost(url.hostname);
  }, 'Use https://: plain http:// is only allowed for a server on this computer (localhost, 127.0.0.0/8 or [::1])');

/** The SSH relay a profile's reverse tunnels go through. */
export const RelaySettingsSchema = z.object({
  host: z.string().trim().min(1).max(253),
  port: z.number().int().min(1).max(65_535),
  username: z.string().trim().min(1).max(128),
  portRange: z
    .tuple([z.number().int().min(1).max(65_535), z.number().int().min(1).max(65_535)])
    .refine(([from, to]) => from <= to, 'The range must start at or below its end')
    .optional(),
});

/** A public demo account shown on the login screen of the demo profile (demo data, not a secret). */
export const DemoAccountSchema = z.object({
  username: z.string(),
  password: z.string(),
  role: z.string(),
});

/** A server profile: where to log in and how; holds no secret except public demo passwords. */
export const ProfileSchema = z.object({
  id: z.string().min(1).max(64),
  name: z.string().trim().min(1, 'Enter a name').max(100),
  baseUrl: BaseUrlSchema,
  username: z.string().trim().max(256).optional(),
  isDemo: z.boolean(),
  trustedCertificateSha256: Sha256FingerprintSchema.optional(),
  relay: RelaySettingsSchema.optional(),
  demoAccounts: z.array(DemoAccountSchema).optional(),
  /**
   * Set by main in its answers: whether a relay password is stored for this profile (keychain, session memory,
   * or the demo relay's known one). The password itself never leaves main; profiles.json never holds this.
   */
  relayPasswordStored: z.boolean().optional(),
});
/** A server profile. */
export type Profile = z.infer<typeof ProfileSchema>;

/** A profile to save: without id to add one, with the id of an existing profile to edit it. */
export const ProfileDraftSchema = ProfileSchema.extend({
  id: ProfileSchema.shape.id.optional(),
  isDemo: z.boolean().optional(),
  /**
   * The relay password to keep in the keychain for this profile: a string replaces it, null clears it, absent
   * keeps what is stored. Main stores it and never sends it back.
   */
  relayPassword: z.string().min(1, 'Enter the relay password').max(1024).nullable().optional(),
});
/** A profile to save. */
export type ProfileDraft = z.infer<typeof ProfileDraftSchema>;

/** What the renderer may know about the current session: never a token. */
export const SessionSummarySchema = z.object({
  profileId: z.string(),
  profileName: z.string(),
  username: z.string(),
  userId: z.string(),
  role: z.string(),
  customerId: z.string().optional(),
  providerId: z.string().optional(),
  accessExpiresAt: z.number(),
  state: z.enum(['active', 'refreshing', 'expired']),
});
/** What the renderer may know about the current session. */
export type SessionSummary = z.infer<typeof SessionSummarySchema>;

/** How much of a login the keychain keeps: nothing, the refresh token, or the refresh token and the password. */
export const RememberModeSchema = z.enum(['none', 'session', 'password']);
/** How much of a login the keychain keeps. */
export type RememberMode = z.infer<typeof RememberModeSchema>;

/** Something the user should know that is not the answer to a call (a corrupt file moved aside, …). */
export const NoticeSchema = z.object({
  code: z.string(),
  message: z.string(),
  at: z.number(),
});
/** Something the user should know. */
export type Notice = z.infer<typeof NoticeSchema>;
