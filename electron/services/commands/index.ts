export * from './command-service';
export * from './risk-guards';
