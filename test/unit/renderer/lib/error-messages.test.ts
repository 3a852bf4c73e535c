import { describe, expect, it } from 'vitest';
import {
  describeLoginError,
  formatFingerprint,
  isWrongCredentials,
  readUntrustedCertificate,
} from '../../../../renderer/src/lib/error-messages';

describe('login error messages', () => {
  it('treats UNAUTHENTICATED and an API 401 as wrong credentials', () => {
    expect(isWrongCredentials({ code: 'UNAUTHENTICATED', message: 'x' })).toBe(true);
    expect(
      isWrongCredentials({
        code: 'API_ERROR',
        message: 'x',
        details: { status: 401, errorCode: 10, endpoint: 'login' },
      }),
    ).toBe(true);
  });

  it('tells an expired password apart from a wrong one', () => {
    const expired = { code: 'API_ERROR' as const, message: 'x', details: { status: 401, errorCode: 15 } };
    expect(isWrongCredentials(expired)).toBe(false);
    expect(describeLoginError(expired, 'https://oam.example')).toMatch(
      /password of this account has expired/,
    );
  });

  it('names the unreachable server and what to check', () => {
    expect(describeLoginError({ code: 'NETWORK', message: 'ECONNREFUSED' }, 'https://oam.example')).toBe(
      "Can't reach the server at https://oam.example. Check this laptop's network (hotspot, Wi-Fi, VPN) and the profile's address.",
    );
  });

  it('does not say the server refused a sign-in whose answer Field Kit refused', () => {
    const unusable = [
      { status: null, message: 'Unexpected answer from login: token: the access token is not a JWT' },
      { status: 302, message: 'The server answered login with a redirect (302 to https://x.example)' },
    ];
    for (const { status, message } of unusable) {
      const error = { code: 'API_ERROR' as const, message, details: { status, errorCode: null } };
      expect(describeLoginError(error, 'https://oam.example')).toBe(
        `Field Kit could not use the server's answer to the sign-in: ${message}`,
      );
    }
    const refused = { code: 'API_ERROR' as const, message: 'Locked', details: { status: 423, errorCode: 2 } };
    expect(describeLoginError(refused, 'https://oam.example')).toBe('The server refused the sign-in: Locked');
  });

  it('says a server that failed (5xx) could not sign the user in, with its status, rather than refused', () => {
    const failed = { code: 'API_ERROR' as const, message: 'Busy', details: { status: 503, errorCode: 2 } };
    expect(describeLoginError(failed, 'https://oam.example')).toBe(
      'The server could not sign you in (HTTP 503: Busy); try again.',
    );
  });

  it('reads the fingerprint and subject of an untrusted certificate', () => {
    const error = {
      code: 'CERTIFICATE_UNTRUSTED' as const,
      message: 'x',
      details: { sha256: 'ab'.repeat(32), subject: 'CN=oam' },
    };
    expect(readUntrustedCertificate(error)).toEqual({ sha256: 'ab'.repeat(32), subject: 'CN=oam' });
    expect(readUntrustedCertificate({ code: 'NETWORK', message: 'x' })).toBeNull();
  });

  it('shows a fingerprint as colon-separated upper-case pairs', () => {
    expect(formatFingerprint('abcd01')).toBe('AB:CD:01');
    expect(formatFingerprint('AB:CD:01')).toBe('AB:CD:01');
  });
});
