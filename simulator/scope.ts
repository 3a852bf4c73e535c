import type { Principal } from './auth';
import { forbidden, notFound } from './failure';
import { customerFamily, type CustomerEntity, type Tenant } from './tenant';

/**
 * Who may see what: a provider user sees every customer of its provider; a customer user sees its own customer
 * and its sub-customers only. Unknown ids are 404 (errorCode 32), known ones out of scope 403 (errorCode 20).
 */
export class Scope {
  private readonly families = new Map<string, Set<string>>();

  constructor(private readonly tenant: Tenant) {}

  /** True when the caller may see this customer's data. */
  canSeeCustomer(principal: Principal, customerId: string): boolean {
    const { user } = principal;
    if (user.authority === 'PROVIDER_USER') return user.providerId === this.tenant.providerId;
    if (!user.customerId) return false;
    return this.familyOf(user.customerId).has(customerId);
  }

  /** The customer, or 404 when unknown and 403 when out of the caller's scope. */
  requireCustomer(principal: Principal, customerId: string): CustomerEntity {
    const customer = this.tenant.customers.get(customerId);
    if (!customer) throw notFound(`Customer ${customerId} not found`);
    this.requireCustomerAccess(principal, customerId);
    return customer;
  }

  /** 403 unless the caller may see this customer's data. */
  requireCustomerAccess(principal: Principal, customerId: string): void {
    if (!this.canSeeCustomer(principal, customerId)) {
      throw forbidden('You do not have permission to access this customer');
    }
  }

  /** 404 for another provider's id, 403 for a customer user. */
  requireProvider(principal: Principal, providerId: string): void {
    if (providerId !== this.tenant.providerId) throw notFound(`Provider ${providerId} not found`);
    if (principal.user.authority !== 'PROVIDER_USER')
      throw forbidden('Only a provider user may list the provider');
  }

  /** The customers whose data the caller may see (a customer user: its own and its sub-customers). */
  visibleCustomers(principal: Principal): Set<string> | 'all' {
    const { user } = principal;
    if (user.authority === 'PROVIDER_USER') return 'all';
    return user.customerId ? this.familyOf(user.customerId) : new Set();
  }

  /** Forgets cached families (after customers change). */
  invalidate(): void {
    this.families.clear();
  }

  private familyOf(customerId: string): Set<string> {
    let family = this.families.get(customerId);
    if (!family) {
      family = customerFamily(this.tenant, customerId);
      this.families.set(customerId, family);
    }
    return family;
  }
}
