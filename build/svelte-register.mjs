// `node --import ./build/svelte-register.mjs` (with tsx: `tsx --import ./build/svelte-register.mjs …`): lets a
// script run straight from the sources import the site report's Svelte components, compiled for the server.
import { register } from 'node:module';

register('./svelte-hooks.mjs', import.meta.url);
