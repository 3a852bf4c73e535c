// electron-builder configuration: `npx electron-builder --config build/electron-builder.config.cjs`
// (npm run dist). Builds AppImage + deb, NSIS and dmg from the bundles in out/ (npm start / build/bundle-
// electron.mjs and `npm run build` produce them). Validated by test/unit/build/electron-builder-config.test.ts.

/** @type {import('electron-builder').Configuration} */
module.exports = {
  appId: 'io.fieldkit.oam',
  productName: 'OAM Field Kit',
  copyright: 'OAM Field Kit authors',
  directories: { output: 'dist', buildResources: 'build' },
  files: ['out/main/**', 'out/preload/**', 'out/renderer/**', 'package.json', '!**/*.map'],
  extraMetadata: { main: 'out/main/index.js' },
  asar: true,
  // Native modules cannot be loaded from inside the asar archive (serial: @serialport/bindings-cpp, ADR 0007).
  asarUnpack: ['**/node_modules/keytar/**', '**/node_modules/@serialport/**', '**/*.node'],
  npmRebuild: true,
  afterPack: './build/after-pack.cjs',
  icon: 'build/icon.png',
  linux: {
    target: ['AppImage', 'deb'],
    category: 'Utility',
    icon: 'build/icon.png',
    maintainer: 'OAM Field Kit authors <fieldkit@example.com>',
    synopsis: 'Commission and repair LoRaWAN gateways',
  },
  // keytar talks to the Secret Service through libsecret.
  deb: { depends: ['libsecret-1-0', 'libnotify4', 'libxtst6', 'libnss3'] },
  win: { target: ['nsis'], icon: 'build/icon.png' },
  nsis: { oneClick: false, perMachine: false, allowToChangeInstallationDirectory: true },
  mac: {
    target: ['dmg'],
    category: 'public.app-category.utilities',
    icon: 'build/icon.png',
    hardenedRuntime: true,
  },
  dmg: { title: 'OAM Field Kit' },
};
