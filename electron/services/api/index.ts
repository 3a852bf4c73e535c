/** The typed OAM API client, its errors and paging helpers, and the certificate-pinning fetch it runs on. */
export * from './client';
export * from './errors';
export * from './paging';
export * from './server-fetch';
