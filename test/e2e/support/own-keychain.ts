import { MemoryStore, type OpenedCredentialStore } from '../../../electron/services/credentials';

/**
 * A keychain of the test's own, reported as the OS one, for hosts whose tests are not about the keychain. The
 * run's real keychain is shared by every test file, and the demo profile has the same id in all of them: a demo
 * login the journey test remembers there would be resumed by another file's host, which then opens signed in
 * instead of on the login screen.
 */
export function ownKeychain(): OpenedCredentialStore {
  return { store: new MemoryStore(), keychain: 'os' };
}
