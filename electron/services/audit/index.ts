export * from './audit-log';
export * from './redaction';
