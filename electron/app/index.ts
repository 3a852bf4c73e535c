export * from './default-session';
export * from './error-mapping';
export * from './field-kit-services';
export * from './session-controller';
export * from './session-port';
export * from './content-security-policy';
export * from './static-path';
export * from './process-faults';
