export * from './profile-store';
