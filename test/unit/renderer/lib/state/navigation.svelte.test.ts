import { describe, expect, it } from 'vitest';
import {
  NavigationState,
  parseRoute,
  routeHash,
} from '../../../../../renderer/src/lib/state/navigation.svelte';

/** The parts of a window NavigationState uses: a location hash, history, and its hashchange listeners. */
function pageAt(hash: string) {
  const listeners = new Set<() => void>();
  const replaced: string[] = [];
  const page = {
    location: { hash },
    history: {
      state: null,
      replaceState: (_state: unknown, _title: string, url?: string | URL | null) => {
        replaced.push(String(url));
        page.location.hash = String(url);
      },
    },
    addEventListener: (_type: string, listener: () => void) => void listeners.add(listener),
    removeEventListener: (_type: string, listener: () => void) => void listeners.delete(listener),
    /** What the browser does on Back or a typed address: a new hash, then hashchange. */
    visit(next: string) {
      page.location.hash = next;
      for (const listener of listeners) listener();
    },
    listeners,
    replaced,
  };
  return page;
}

function navigationOn(page: ReturnType<typeof pageAt>): NavigationState {
  return new NavigationState(page);
}

describe('routes', () => {
  it('reads a view and its path, decoding each segment; an unknown view is the gateway list', () => {
    expect(parseRoute('#/gateways/gw%201/console')).toEqual({ view: 'gateways', path: ['gw 1', 'console'] });
    expect(parseRoute('#/no-such-view/x')).toEqual({ view: 'gateways', path: [] });
    expect(parseRoute('')).toEqual({ view: 'gateways', path: [] });
    expect(routeHash('commissioning', ['gw/1', 'wizard'])).toBe('#/commissioning/gw%2F1/wizard');
  });
});

describe('NavigationState', () => {
  it('starts where the address says and follows Back and typed addresses', () => {
    const page = pageAt('#/events');
    const navigation = navigationOn(page);
    expect(navigation.current).toBe('events');
    page.visit('#/gateways/gw-7/console');
    expect([navigation.current, navigation.path]).toEqual(['gateways', ['gw-7', 'console']]);
  });

  it('goes to a view by writing the address, and replaces it without a history entry', () => {
    const page = pageAt('#/gateways');
    const navigation = navigationOn(page);
    navigation.go('terminals', ['serial']);
    expect(page.location.hash).toBe('/terminals/serial');
    expect([navigation.current, navigation.path]).toEqual(['terminals', ['serial']]);
    navigation.replace('site-pack');
    expect(page.replaced).toEqual(['#/site-pack']);
    expect(navigation.current).toBe('site-pack');
  });

  it('stops following the address once disposed', () => {
    const page = pageAt('#/gateways');
    const navigation = navigationOn(page);
    navigation.dispose();
    expect(page.listeners.size).toBe(0);
    page.visit('#/settings');
    expect(navigation.current).toBe('gateways');
  });
});
