export * from './export';
export * from './site-report';
export * from './visit-summary';
export * from './visit-photos';
