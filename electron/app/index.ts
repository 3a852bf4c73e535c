export * from './default-server-session';
export * from './error-mapping';
export * from './field-kit-services';
export * from './server-session-controller';
export * from './server-session-port';
export * from './content-security-policy';
export * from './static-path';
export * from './process-faults';
