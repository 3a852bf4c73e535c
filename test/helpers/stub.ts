/**
 * A test double as the type it stands in for, built from the members the code under test uses: each member given
 * is checked against T's, and a member not given is absent (calling it fails loudly in the test). For the large
 * interfaces of Electron and ssh2 that a unit test exercises a corner of.
 */
export function stubOf<T extends object>(members: Partial<T>): T {
  return members as T;
}
