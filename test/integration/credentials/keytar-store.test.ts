// Runs against a real Secret Service keyring:
//   dbus-run-session -- bash scripts/with-keyring.sh npx vitest run test/integration/credentials
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CREDENTIAL_SERVICE, openCredentialStore } from '../../../electron/services/credentials';

const hasKeyring = Boolean(process.env.DBUS_SESSION_BUS_ADDRESS);

describe.runIf(hasKeyring)('KeytarStore against gnome-keyring', () => {
  it('opens the OS keychain, stores, reads back and deletes a secret', async () => {
    const opened = await openCredentialStore();
    expect(opened.keychain).toBe('os');
    const account = `test-${randomUUID()}`;
    await opened.store.set(CREDENTIAL_SERVICE, account, 'refresh-token-value');
    expect(await opened.store.get(CREDENTIAL_SERVICE, account)).toBe('refresh-token-value');
    expect(await opened.store.delete(CREDENTIAL_SERVICE, account)).toBe(true);
    expect(await opened.store.get(CREDENTIAL_SERVICE, account)).toBeNull();
  });
});

describe.runIf(!hasKeyring)('KeytarStore without a keyring', () => {
  it('falls back to the visible session-only mode instead of failing', async () => {
    const opened = await openCredentialStore({ timeoutMs: 2_000 });
    expect(opened.keychain).toBe('session-only');
  });
});
