import { describe, expect, it } from 'vitest';
import {
  mapServerIssues,
  readProfileFields,
  validateProfileFields,
  type ProfileFields,
} from '../../../../renderer/src/lib/profile-form';
import { buildProfile } from '../../../e2e/support/factories';

function buildFields(overrides: Partial<ProfileFields> = {}): ProfileFields {
  return {
    name: 'Roof site',
    baseUrl: 'https://oam.roof.example',
    username: '',
    relayHost: '',
    relayPort: '',
    relayUsername: '',
    relayPassword: '',
    clearRelayPassword: false,
    ...overrides,
  };
}

describe('profile form validation', () => {
  it('builds a new, non-demo profile from valid fields', () => {
    expect(validateProfileFields(buildFields({ username: ' field@roof.example ' }), null)).toEqual({
      errors: {},
      draft: {
        isDemo: false,
        name: 'Roof site',
        baseUrl: 'https://oam.roof.example',
        username: 'field@roof.example',
      },
    });
  });

  it('keeps the edited profile’s id, pinned certificate and relay port range', () => {
    const original = buildProfile({
      trustedCertificateSha256: 'AB'.repeat(32),
      relay: { host: 'relay.acme.example', port: 22, username: 'tunnel', portRange: [40000, 40100] },
    });
    const { draft } = validateProfileFields({ ...readProfileFields(original), name: 'Renamed' }, original);
    expect(draft).toMatchObject({
      id: original.id,
      name: 'Renamed',
      trustedCertificateSha256: original.trustedCertificateSha256,
      relay: { host: 'relay.acme.example', port: 22, username: 'tunnel', portRange: [40000, 40100] },
    });
  });

  it('refuses plain http except for a server on this computer', () => {
    expect(
      validateProfileFields(buildFields({ baseUrl: 'http://oam.example' }), null).errors.baseUrl,
    ).toMatch(/https/);
    expect(validateProfileFields(buildFields({ baseUrl: 'http://127.0.0.1:8080' }), null).errors).toEqual({});
  });

  it('refuses an address with credentials, a query or something that is not an address', () => {
    for (const baseUrl of [
      'https://user:pw@oam.example',
      'https://oam.example/?a=1',
      'oam.example',
      'ftp://x',
    ]) {
      expect(validateProfileFields(buildFields({ baseUrl }), null).errors.baseUrl).toBeTruthy();
    }
  });

  it('asks for the whole relay when only part of it is filled in', () => {
    const { errors, draft } = validateProfileFields(buildFields({ relayPort: '2222' }), null);
    expect(draft).toBeNull();
    expect(Object.keys(errors).sort()).toEqual(['relayHost', 'relayUsername']);
  });

  it('refuses a relay port outside 1 to 65535 and defaults an empty one to 22', () => {
    const relay = { relayHost: 'relay.example', relayUsername: 'tunnel' };
    expect(
      validateProfileFields(buildFields({ ...relay, relayPort: '0' }), null).errors.relayPort,
    ).toBeTruthy();
    expect(
      validateProfileFields(buildFields({ ...relay, relayPort: '22a' }), null).errors.relayPort,
    ).toBeTruthy();
    expect(validateProfileFields(buildFields(relay), null).draft?.relay?.port).toBe(22);
  });

  it('sends a typed relay password as is, spaces included, to be stored', () => {
    const fields = buildFields({
      relayHost: 'relay.acme.example',
      relayUsername: 'tunnel',
      relayPassword: ' pass phrase ',
    });
    expect(validateProfileFields(fields, null).draft).toMatchObject({ relayPassword: ' pass phrase ' });
  });

  it('leaves the stored relay password alone when the field stays empty', () => {
    const original = buildProfile({
      relay: { host: 'relay.acme.example', port: 22, username: 'tunnel' },
      relayPasswordStored: true,
    });
    const { draft } = validateProfileFields(readProfileFields(original), original);
    expect(draft).not.toHaveProperty('relayPassword');
    expect(draft).not.toHaveProperty('relayPasswordStored');
  });

  it('asks main to clear a stored relay password when the user clears it', () => {
    const original = buildProfile({
      relay: { host: 'relay.acme.example', port: 22, username: 'tunnel' },
      relayPasswordStored: true,
    });
    const fields = { ...readProfileFields(original), clearRelayPassword: true };
    expect(validateProfileFields(fields, original).draft).toMatchObject({ relayPassword: null });
  });

  it('refuses a relay password without a relay to use it for', () => {
    expect(validateProfileFields(buildFields({ relayPassword: 'secret' }), null)).toMatchObject({
      errors: { relayPassword: expect.stringMatching(/relay host/) },
      draft: null,
    });
  });

  it('places main’s field issues next to the fields they name', () => {
    const mapped = mapServerIssues({
      code: 'INVALID_INPUT',
      message: 'Invalid input',
      details: [
        { path: 'relay.port', message: 'Too big' },
        { path: 'demoAccounts', message: 'Not allowed' },
      ],
    });
    expect(mapped).toEqual({ fields: { relayPort: 'Too big' }, form: 'demoAccounts: Not allowed' });
  });
});
