export * from './export';
export * from './site-report';
export * from '../../shared/report/visit-summary';
export * from './visit-photos';
