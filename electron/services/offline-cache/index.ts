export * from './offline-cache';
