import type { MenuItemConstructorOptions } from 'electron';
import { t } from '../shared/i18n';

/** What the menu's own items do. */
export interface MenuActions {
  openLogsFolder: () => void;
}

/**
 * The application menu: the standard roles (edit, view, window; Electron names them in the system's language) plus
 * "Open logs folder" under Help, in the app's current language (main builds it again when the language changes).
 */
export function buildMenuTemplate(
  platform: NodeJS.Platform,
  actions: MenuActions,
): MenuItemConstructorOptions[] {
  const isMac = platform === 'darwin';
  return [
    ...(isMac ? [{ role: 'appMenu' as const }] : []),
    { role: 'fileMenu' },
    { role: 'editMenu' },
    {
      label: t('main:menuView'),
      submenu: [
        { role: 'reload' },
        { role: 'forceReload' },
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
    {
      role: 'help',
      submenu: [{ label: t('main:menuOpenLogsFolder'), click: () => actions.openLogsFolder() }],
    },
  ];
}
