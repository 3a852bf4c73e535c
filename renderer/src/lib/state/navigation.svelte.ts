/** The views of the app shell, in navigation order. */
export const VIEW_IDS = [
  'gateways',
  'devices',
  'events',
  'telemetry',
  'integrations',
  'settings',
  'terminals',
] as const;

/** One view of the app shell. */
export type ViewId = (typeof VIEW_IDS)[number];

function isViewId(value: string): value is ViewId {
  return (VIEW_IDS as readonly string[]).includes(value);
}

/** Reads a view from a location hash like `#/devices`; anything else is the gateways view. */
export function parseViewHash(hash: string): ViewId {
  const name = hash.replace(/^#\/?/, '');
  return isViewId(name) ? name : 'gateways';
}

/** The current view as a rune, mirrored in the location hash so back/forward and reloads keep it. */
export class NavigationState {
  current = $state<ViewId>('gateways');
  readonly #page: Window;
  readonly #onHashChange = () => {
    this.current = parseViewHash(this.#page.location.hash);
  };

  constructor(page: Window = window) {
    this.#page = page;
    this.current = parseViewHash(page.location.hash);
    page.addEventListener('hashchange', this.#onHashChange);
  }

  /** The hash link of a view. */
  href(view: ViewId): string {
    return `#/${view}`;
  }

  /** Shows a view (and records it in history). */
  go(view: ViewId): void {
    this.#page.location.hash = `/${view}`;
    this.current = view;
  }

  /** Stops following the location. */
  dispose(): void {
    this.#page.removeEventListener('hashchange', this.#onHashChange);
  }
}
