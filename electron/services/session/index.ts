/** A logged-in session on top of the typed client. */
export * from './jwt';
export * from './session';
export * from './token-lifetimes';
