// Registers a Node loader hook that compiles `.svelte` files for the server (svelte-register.mjs).
export {};
