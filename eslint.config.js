// ESLint flat config. The `no-restricted-imports` blocks enforce the import direction (docs/architecture.md):
// shared ← services ← app ← main/host; shared ← preload; shared ← renderer; shared ← simulator.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const ELECTRON_PACKAGE = {
  name: 'electron',
  message: 'Only electron/main and electron/preload may import electron.',
};

// `patterns` are gitignore-style (a bare name would also match our own electron/ folder), so the electron
// package itself is refused by exact name through `paths`.
const layer = (files, patterns, { allowElectron = false, allowNodeBuiltins = true } = {}) => ({
  files,
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns,
        paths: [
          ...(allowElectron ? [] : [ELECTRON_PACKAGE]),
          ...(allowNodeBuiltins ? [] : NODE_BUILTIN_NAMES),
        ],
      },
    ],
  },
});

const NODE_BUILTINS = {
  group: ['node:*'],
  message: 'This layer runs outside Node: no node:* modules.',
};
// Bare names too (`fs`, `child_process`, `fs/promises`), by exact name: as patterns, `events` or `path` would also
// match our own modules of that name.
const NODE_BUILTIN_NAMES = builtinModules.map((name) => ({
  name,
  message: 'This layer runs outside Node: no Node built-ins.',
}));
const outOf = (...folders) =>
  folders.map((folder) => ({
    group: [`**/${folder}/**`, `**/${folder}`],
    message: `Import direction (docs/architecture.md): this layer may not import from ${folder}/.`,
  }));

const DATE_NOW = {
  object: 'Date',
  property: 'now',
  message:
    'Take the time from a Clock (electron/shared/clock.ts; renderer/src/lib/clock.ts in the renderer).',
};
const TIMER_MESSAGE =
  'Set timers on a Clock (electron/shared/clock.ts): in the renderer `appClock` or `every` from renderer/src/lib/clock.ts.';
const TIMER_GLOBALS = ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'].map((name) => ({
  name,
  message: TIMER_MESSAGE,
}));

export default tseslint.config(
  { ignores: ['node_modules/', 'out/', 'dist/', 'bench-results/', 'coverage/', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...svelte.configs['flat/recommended'],
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: { parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.svelte'] } },
  },
  {
    // Type-aware rules for all the TypeScript (the app, the simulator, tests, scripts): an unhandled rejection is a
    // failure nobody sees, and in a test one that may not fail it. Each file is checked with its nearest tsconfig
    // (renderer/ has its own); the .mjs scripts are in no tsconfig and keep the plain rules.
    files: [
      'electron/**/*.ts',
      'renderer/**/*.ts',
      'renderer/**/*.svelte',
      'simulator/**/*.ts',
      'test/**/*.ts',
      'scripts/**/*.ts',
    ],
    ignores: ['renderer/vite.config.ts'],
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
        extraFileExtensions: ['.svelte'],
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    // A cast through `never` or `unknown` stops the compiler checking. The app's code keeps them to the few files
    // that read a shape a library or the browser does not declare, each listed with why.
    files: [
      'electron/**/*.ts',
      'renderer/**/*.ts',
      'renderer/**/*.svelte',
      'simulator/**/*.ts',
      'scripts/**/*.ts',
      'test/**/*.ts',
    ],
    ignores: [
      // ssh2's undeclared channel fields that steer the receive window (ADR 0002).
      'electron/services/ssh/receive-window.ts',
      // bindings-cpp's autoDetect() as the binding interface restated in electron/shared/serial (ADR 0007).
      'electron/services/serial/serial-ports.ts',
      // The browser's WebSocket and window, as the parts of them the transport uses.
      'renderer/src/lib/transport.ts',
      // The end-to-end tests' terminal probe, which only test code sets on window.
      'renderer/src/lib/components/TerminalPane.svelte',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "TSAsExpression[typeAnnotation.type='TSNeverKeyword']",
          message: '`as never` switches type checking off: build a value of the type (a factory) instead.',
        },
        {
          selector:
            "TSAsExpression[expression.type='TSAsExpression'][expression.typeAnnotation.type='TSUnknownKeyword']",
          message:
            '`as unknown as` switches type checking off: narrow with a type guard or a schema instead.',
        },
        {
          // Tests included: a test's "now" is a ManualClock's, or a fixed date written out.
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message:
            '`new Date()` reads the wall clock: take the time from a Clock (electron/shared/clock.ts).',
        },
      ],
    },
  },
  {
    // Time comes from one Clock (electron/shared/clock.ts; the renderer's is renderer/src/lib/clock.ts), so that
    // tests move it. Only the clock module reads the wall clock.
    files: ['electron/**/*.ts', 'renderer/**/*.ts', 'renderer/**/*.svelte', 'simulator/**/*.ts'],
    ignores: ['electron/shared/clock.ts'],
    rules: {
      'no-restricted-properties': ['error', DATE_NOW],
    },
  },
  {
    // Timers too: a wait or a tick set on the browser's or Node's timers is one a test cannot move. The renderer
    // sets them on `appClock` (or `every`) from renderer/src/lib/clock.ts, main's code on the Clock it is given.
    files: ['electron/**/*.ts', 'renderer/**/*.ts', 'renderer/**/*.svelte'],
    ignores: ['electron/shared/clock.ts', 'renderer/src/lib/clock.ts'],
    rules: {
      'no-restricted-globals': ['error', ...TIMER_GLOBALS],
      'no-restricted-properties': [
        'error',
        DATE_NOW,
        ...['globalThis', 'window', 'self'].flatMap((object) =>
          TIMER_GLOBALS.map(({ name, message }) => ({ object, property: name, message })),
        ),
      ],
    },
  },
  layer(
    ['electron/shared/**'],
    [NODE_BUILTINS, ...outOf('services', 'app', 'main', 'host', 'preload', 'renderer', 'simulator')],
    { allowNodeBuiltins: false },
  ),
  layer(['electron/services/**'], [...outOf('app', 'main', 'host', 'preload', 'renderer', 'simulator')]),
  layer(['electron/app/**'], [...outOf('main', 'host', 'preload', 'renderer', 'simulator')]),
  layer(['electron/host/**'], [...outOf('main', 'preload', 'renderer/src')]),
  layer(['electron/main/**'], outOf('host', 'preload', 'renderer/src'), { allowElectron: true }),
  layer(
    ['electron/preload/**'],
    [NODE_BUILTINS, ...outOf('services', 'app', 'main', 'host', 'renderer', 'simulator')],
    {
      allowElectron: true,
      allowNodeBuiltins: false,
    },
  ),
  layer(
    ['renderer/**'],
    [NODE_BUILTINS, ...outOf('services', 'app', 'main', 'host', 'preload', 'simulator')],
    {
      allowNodeBuiltins: false,
    },
  ),
  layer(['simulator/**'], [...outOf('services', 'app', 'main', 'host', 'preload', 'renderer')]),
);
