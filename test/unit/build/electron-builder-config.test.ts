import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { FuseV1Options, FuseVersion } from '@electron/fuses';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const require = createRequire(import.meta.url);

interface BuilderConfig {
  appId: string;
  productName: string;
  files: string[];
  extraMetadata: { main: string };
  asar: boolean;
  asarUnpack: string[];
  afterPack: string;
  linux: { target: string[]; icon: string };
  win: { target: string[] };
  mac: { target: string[] };
  deb: { depends: string[] };
}

const config = require(join(ROOT, 'build', 'electron-builder.config.cjs')) as BuilderConfig;
const afterPack = require(join(ROOT, 'build', 'after-pack.cjs')) as ((context: unknown) => Promise<void>) & {
  buildFuseConfig(platform: string, arch: string): Record<string | number, unknown>;
  electronBinaryPath(context: unknown): string;
};

describe('electron-builder configuration', () => {
  it('names the app and ships only the built bundles', () => {
    expect(config.appId).toMatch(/^[a-z]+(\.[a-z]+)+$/);
    expect(config.productName).toBe('OAM Field Kit');
    expect(config.files).toEqual(
      expect.arrayContaining(['out/main/**', 'out/preload/**', 'out/renderer/**']),
    );
    expect(config.extraMetadata.main).toBe('out/main/index.js');
  });

  it('builds AppImage and deb, NSIS, and dmg', () => {
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.win.target).toEqual(['nsis']);
    expect(config.mac.target).toEqual(['dmg']);
  });

  it('packs into asar but unpacks the native modules keytar and @serialport/bindings-cpp', () => {
    expect(config.asar).toBe(true);
    const unpacked = config.asarUnpack.join(' ');
    expect(unpacked).toContain('node_modules/keytar/');
    expect(unpacked).toContain('node_modules/@serialport/');
    expect(config.asarUnpack).toContain('**/*.node');
  });

  it('depends on libsecret in the deb so keytar finds the keychain', () => {
    expect(config.deb.depends).toContain('libsecret-1-0');
  });

  it('has a 512×512 PNG icon', () => {
    const icon = readFileSync(join(ROOT, config.linux.icon));
    expect(icon.subarray(1, 4).toString('ascii')).toBe('PNG');
    expect(icon.readUInt32BE(16)).toBe(512);
    expect(icon.readUInt32BE(20)).toBe(512);
  });

  it('points afterPack at a hook that exists and is a function', () => {
    expect(existsSync(join(ROOT, config.afterPack))).toBe(true);
    expect(typeof afterPack).toBe('function');
  });
});

describe('fuses flipped after packing', () => {
  it('turns RunAsNode, NODE_OPTIONS and --inspect off and asar integrity and only-asar on', () => {
    const fuses = afterPack.buildFuseConfig('linux', 'x64');
    expect(fuses).toMatchObject({
      version: FuseVersion.V1,
      [FuseV1Options.RunAsNode]: false,
      [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
      [FuseV1Options.EnableNodeCliInspectArguments]: false,
      [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
      [FuseV1Options.OnlyLoadAppFromAsar]: true,
    });
  });

  it('re-signs ad hoc only for arm64 macOS', () => {
    expect(afterPack.buildFuseConfig('darwin', 'arm64').resetAdHocDarwinSignature).toBe(true);
    expect(afterPack.buildFuseConfig('linux', 'arm64').resetAdHocDarwinSignature).toBe(false);
  });

  it('finds the Electron executable on each platform', () => {
    const context = (platform: string) => ({
      electronPlatformName: platform,
      appOutDir: '/dist/unpacked',
      packager: { appInfo: { productFilename: 'OAM Field Kit' }, executableName: 'oam-field-kit' },
    });
    expect(afterPack.electronBinaryPath(context('linux'))).toBe('/dist/unpacked/oam-field-kit');
    expect(afterPack.electronBinaryPath(context('win32'))).toBe('/dist/unpacked/OAM Field Kit.exe');
    expect(afterPack.electronBinaryPath(context('darwin'))).toBe(
      '/dist/unpacked/OAM Field Kit.app/Contents/MacOS/OAM Field Kit',
    );
  });
});
