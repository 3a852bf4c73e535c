export * from './gateway-search';
export * from './site-pack-builder';
export * from '../../shared/site-pack-file';
export * from './site-pack-store';
export * from './site-packs';
