export * from './credential-store';
export * from './keytar-store';
