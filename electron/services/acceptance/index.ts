export * from './acceptance-table';
export * from './acceptance-check';
export * from './offline-card';
export * from './threshold-overrides';
