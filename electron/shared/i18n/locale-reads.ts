/**
 * The hook a reactive renderer hangs on every read of the current language: `t` and `format` call
 * noteLocaleRead, so a screen that wrote a message redraws it when the language changes, without a reload.
 * Main sets no hook.
 */

let hook: () => void = () => {};

/** Called by `t` and `format` on each use. */
export function noteLocaleRead(): void {
  hook();
}

/** Sets what noteLocaleRead does (the renderer: read the language's reactive state). */
export function setLocaleReadHook(next: () => void): void {
  hook = next;
}
