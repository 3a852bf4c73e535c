/** The typed OAM API client, its errors and paging helpers, and the certificate-pinning fetch it runs on. */
export * from './client';
export * from './errors';
export * from './network-failure';
export * from './paging';
export * from './server-fetch';
