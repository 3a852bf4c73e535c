export * from './host-server';
export * from './start-host';
export * from './arguments';
