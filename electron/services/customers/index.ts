export { CustomerStore } from './customer-store';
export { KnownCustomers, customerIdsIn, type CustomerReader } from './known-customers';
