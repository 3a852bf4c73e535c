export * from './export';
export * from './site-visit';
export * from './report-model';
export * from './journal-visit';
export * from './render-report';
export * from '../../shared/report/visit-summary';
export * from '../../shared/report/visit-lines';
