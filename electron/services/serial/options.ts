// The serial options live in electron/shared/terminal/ since the IPC contract takes them; re-exported here.
export * from '../../shared/terminal/serial-options';
