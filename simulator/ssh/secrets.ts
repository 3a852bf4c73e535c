import { timingSafeEqual } from 'node:crypto';

/** Compares two passwords in time that does not depend on where they differ. */
export function equalSecrets(given: string, expected: string): boolean {
  const left = Buffer.from(given, 'utf8');
  const right = Buffer.from(expected, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}
