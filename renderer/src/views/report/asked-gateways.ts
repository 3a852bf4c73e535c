/**
 * The texts typed for a gateway the technician was already asked to pick a gateway for in this run (picked or kept
 * as typed): the report view asks once per text, not each time it opens.
 */
export const ASKED_GATEWAYS = new Set<string>();
