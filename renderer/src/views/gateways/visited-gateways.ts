import { SvelteSet } from 'svelte/reactivity';

/**
 * The gateways whose page was opened in this run of the app, by id: the site report offers them beside the ones
 * worked on, so that a gateway only inspected (online, or from the site pack with no server) can be in the record.
 */
export const VISITED_GATEWAYS = new SvelteSet<string>();
