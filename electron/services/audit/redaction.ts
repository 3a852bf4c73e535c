/**
 * Keys whose values are secrets wherever they appear (compared without case, `-` or `_`). A value under one of
 * these keys is replaced by REDACTED before anything is written to the audit log or a report.
 */
export const SECRET_KEYS: readonly string[] = [
  'password',
  'passwd',
  'passphrase',
  'secret',
  'clientSecret',
  'token',
  'accessToken',
  'refreshToken',
  'apiKey',
  'authorization',
  'xAuthorization',
  'cookie',
  'clientKeyPassword',
  'clientPrivateKey',
  'privateKey',
  'appKey',
  'appSKey',
  'nwkKey',
  'nwkSKey',
  'fNwkSIntKey',
  'sNwkSIntKey',
  'nwkSEncKey',
  'genAppKey',
];

/** What a redacted value reads as. */
export const REDACTED = '[redacted]';

/** Deepest nesting redaction walks; anything deeper is replaced whole (a guard against cycles and bombs). */
const MAX_DEPTH = 32;

const normalize = (key: string) => key.replace(/[-_\s]/g, '').toLowerCase();
const SECRET_KEY_SET = new Set(SECRET_KEYS.map(normalize));

/** True when a value stored under `key` must never be written down. */
export function isSecretKey(key: string): boolean {
  const normalized = normalize(key);
  return SECRET_KEY_SET.has(normalized) || normalized.endsWith('password') || normalized.endsWith('token');
}

/**
 * A deep copy of `value` with every secret replaced by REDACTED, whatever the nesting (objects and arrays).
 * Never mutates its input; non-JSON values (functions, symbols) are dropped like JSON.stringify would.
 */
export function redactSecrets<Value>(value: Value): Value {
  return redactValue(value, 0) as Value;
}

function redactValue(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== 'object') {
    return typeof value === 'function' || typeof value === 'symbol' ? undefined : value;
  }
  if (depth >= MAX_DEPTH) return REDACTED;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1));
  if (value instanceof Date) return value.toISOString();
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (isSecretKey(key)) {
      copy[key] = REDACTED;
      continue;
    }
    const redacted = redactValue(item, depth + 1);
    if (redacted !== undefined) copy[key] = redacted;
  }
  return copy;
}

/**
 * Removes secrets from free text too (an error message may quote a request): `password=…`, `"token": "…"`,
 * and `Bearer <jwt>` are masked. Known secret values passed in `known` are masked wherever they appear.
 */
export function redactText(text: string, known: readonly string[] = []): string {
  let result = text;
  for (const secret of known) {
    if (secret.length >= 4) result = result.split(secret).join(REDACTED);
  }
  return result
    .replace(/(Bearer\s+)[A-Za-z0-9._~+/=-]+/gi, `$1${REDACTED}`)
    .replace(
      /("?(?:[a-z]*password|[a-z]*token|secret|appS?Key|nwkS?Key|privateKey)"?\s*[:=]\s*)("[^"]*"|[^\s,}&]+)/gi,
      `$1${REDACTED}`,
    );
}
