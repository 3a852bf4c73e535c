import type { MenuItemConstructorOptions } from 'electron';

/** What the menu's own items do. */
export interface MenuActions {
  openLogsFolder: () => void;
}

/** The application menu: the standard roles (edit, view, window) plus "Open logs folder" under Help. */
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
      label: 'View',
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
      submenu: [{ label: 'Open logs folder', click: () => actions.openLogsFolder() }],
    },
  ];
}
