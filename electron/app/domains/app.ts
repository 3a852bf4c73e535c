import type { Notice } from '../../shared/ipc/schemas';
import { applyLanguage } from '../../shared/locale';
import type { ChannelHandlers } from './context';

/** What the app channels answer: the build, the transport, the keychain in use and the notices so far. */
export interface AppDependencies {
  version: string;
  mode: 'electron' | 'browser';
  /** The keychain in use now: the browser host learns it from a probe that may finish after the handlers exist. */
  keychain(): 'os' | 'session-only';
  /** Every notice of this run, oldest first. */
  notices(): readonly Notice[];
  /** Runs after main's language changed (the menu is built again in it). */
  onLanguageApplied?: () => void;
}

/** Handlers of `app:info`, `app:notices` and `app:language` (contract.ts). */
export function createAppHandlers({
  version,
  mode,
  keychain,
  notices,
  onLanguageApplied,
}: AppDependencies): ChannelHandlers<'app:info' | 'app:notices' | 'app:language'> {
  return {
    'app:info': () => ({ version, mode, keychain: keychain() }),
    'app:notices': () => ({ notices: [...notices()] }),
    // Main's messages and times follow the screen's language (one per app: the last window to say wins).
    'app:language': ({ language, systemLocale }) => {
      applyLanguage(language, systemLocale);
      onLanguageApplied?.();
      return null;
    },
  };
}
