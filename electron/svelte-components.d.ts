// The main side imports the site report's Svelte components to render them with svelte/server; svelte-check types
// their props (renderer/tsconfig.json), tsc only needs to know a .svelte module is a component.
declare module '*.svelte' {
  import type { Component } from 'svelte';

  const component: Component<Record<string, unknown>>;
  export default component;
}
