// Runs against a real Secret Service keyring:
//   dbus-run-session -- bash scripts/with-keyring.sh npx vitest run test/integration/credentials
// (`npm test` runs every test that way.)
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CREDENTIAL_SERVICE, openCredentialStore } from '../../../electron/services/credentials';

describe('KeytarStore against gnome-keyring', () => {
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

describe('KeytarStore without a keyring', () => {
  it('falls back to the visible session-only mode instead of failing', async () => {
    // A process with no D-Bus session and no display: no Secret Service can answer it.
    const script = `
      import { openCredentialStore } from './electron/services/credentials';
      const opened = await openCredentialStore({ timeoutMs: 2_000 });
      console.log(opened.keychain);`;
    const env = { ...process.env };
    delete env.DBUS_SESSION_BUS_ADDRESS;
    delete env.DISPLAY;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      {
        cwd: new URL('../../..', import.meta.url).pathname,
        env,
      },
    );
    expect(stdout.trim().split('\n').at(-1)).toBe('session-only');
  });
});
