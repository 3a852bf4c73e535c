/** The views of the app shell, in navigation order. */
export const VIEW_IDS = [
  'gateways',
  'devices',
  'events',
  'telemetry',
  'integrations',
  'commissioning',
  'settings',
  'terminals',
  'site-pack',
] as const;

/** One view of the app shell. */
export type ViewId = (typeof VIEW_IDS)[number];

function isViewId(value: string): value is ViewId {
  return (VIEW_IDS as readonly string[]).includes(value);
}

/** A view and the path inside it: `#/gateways/gw-1/console` → `{ view: 'gateways', path: ['gw-1', 'console'] }`. */
export interface Route {
  view: ViewId;
  path: string[];
}

/** Reads a route from a location hash; an unknown view is the gateways view with no path. */
export function parseRoute(hash: string): Route {
  const [name = '', ...rest] = hash.replace(/^#\/?/, '').split('/');
  if (!isViewId(name)) return { view: 'gateways', path: [] };
  return { view: name, path: rest.filter(Boolean).map((segment) => decodeURIComponent(segment)) };
}

/** The hash of a route: segments URI-encoded. */
export function routeHash(view: ViewId, path: readonly string[] = []): string {
  return `#/${[view, ...path.map((segment) => encodeURIComponent(segment))].join('/')}`;
}

/** The parts of the window navigation uses (the window itself in the app; a small stand-in in tests). */
export interface NavigationPage {
  location: { hash: string };
  history: Pick<History, 'state' | 'replaceState'>;
  addEventListener(type: 'hashchange', listener: () => void): void;
  removeEventListener(type: 'hashchange', listener: () => void): void;
}

/** The current view as a rune, mirrored in the location hash so back/forward and reloads keep it. */
export class NavigationState {
  current = $state<ViewId>('gateways');
  /** The path inside the current view, e.g. a gateway id and a tab. */
  path = $state<string[]>([]);
  readonly #page: NavigationPage;
  readonly #onHashChange = () => {
    this.#follow();
  };

  constructor(page: NavigationPage = window) {
    this.#page = page;
    this.#follow();
    page.addEventListener('hashchange', this.#onHashChange);
  }

  #follow(): void {
    const route = parseRoute(this.#page.location.hash);
    this.current = route.view;
    this.path = route.path;
  }

  /** The hash link of a view, or of a place inside it. */
  href(view: ViewId, path: readonly string[] = []): string {
    return routeHash(view, path);
  }

  /** Shows a view, or a place inside it (and records it in history). */
  go(view: ViewId, path: readonly string[] = []): void {
    this.#page.location.hash = routeHash(view, path).slice(1);
    this.current = view;
    this.path = [...path];
  }

  /** Shows a view, or a place inside it, in place of the current one in history (Back skips it). */
  replace(view: ViewId, path: readonly string[] = []): void {
    this.#page.history.replaceState(this.#page.history.state, '', routeHash(view, path));
    this.current = view;
    this.path = [...path];
  }

  /** Stops following the location. */
  dispose(): void {
    this.#page.removeEventListener('hashchange', this.#onHashChange);
  }
}
