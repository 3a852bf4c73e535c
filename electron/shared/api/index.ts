/** The OAM API encoded once: records, rules, endpoints, gateway commands, errors and assumptions. */
export * from './assumptions';
export * from './auth';
export * from './commands';
export * from './common';
export * from './customer';
export * from './device';
export * from './endpoints';
export * from './errors';
export * from './events';
export * from './gateway';
export * from './integration';
export * from './network-settings';
export * from './performance';
export * from './query';
export * from './validation';
