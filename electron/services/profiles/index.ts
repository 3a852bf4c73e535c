export * from './atomic-file';
export * from './profile-store';
