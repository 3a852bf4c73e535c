export * from './serial-options';
export * from './terminal-schemas';
