export { CustomerStore, CUSTOMERS_FOLDER, MAX_KNOWN_CUSTOMERS } from './customer-store';
export { KnownCustomers, customerIdsIn, type CustomerReader } from './known-customers';
