/** The typed OAM API client, its errors and paging helpers. */
export * from './client';
export * from './errors';
export * from './paging';
