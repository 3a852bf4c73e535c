export * from './journal-file';
export * from './visits';
