export * from './journal-file';
export * from './visits';
export type { VisitPhotoFile, VisitState } from './visit-state';
export * from './bundle';
export * from './verify-bundle';
export * from './visit-export';
export * from './gateway-identity';
export * from './terminal-journal';
export * from './command-journal';
