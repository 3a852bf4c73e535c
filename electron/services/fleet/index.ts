export * from './fleet-changes';
export * from './fleet-job';
export * from './fleet-limits';
export * from './fleet-table';
export * from './fleet-targets';
export * from './fleet-upgrade';
export * from './fleet-risk';
