// electron-builder afterPack hook: flips Electron's fuses in the packaged binary before it is signed and
// wrapped into AppImage/deb/NSIS/dmg. Off: RunAsNode, NODE_OPTIONS, --inspect; on: asar integrity, only-asar.
/* eslint-disable @typescript-eslint/no-require-imports -- electron-builder loads this hook with require(). */
const path = require('node:path');
const { flipFuses, FuseV1Options, FuseVersion } = require('@electron/fuses');

/** The fuse wire of every packaged build (docs/architecture.md, "Security model"). */
function buildFuseConfig(platform, arch) {
  return {
    version: FuseVersion.V1,
    // An arm64 macOS binary must stay ad-hoc signed after its bytes change, or it will not start.
    resetAdHocDarwinSignature: platform === 'darwin' && arch === 'arm64',
    [FuseV1Options.RunAsNode]: false,
    [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
    [FuseV1Options.EnableNodeCliInspectArguments]: false,
    [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
    [FuseV1Options.OnlyLoadAppFromAsar]: true,
    [FuseV1Options.EnableCookieEncryption]: true,
    [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
  };
}

/** Where electron-builder put the Electron executable for this platform. */
function electronBinaryPath(context) {
  const platform = context.electronPlatformName;
  const productFilename = context.packager.appInfo.productFilename;
  if (platform === 'darwin') {
    return path.join(context.appOutDir, `${productFilename}.app`, 'Contents', 'MacOS', productFilename);
  }
  if (platform === 'win32') return path.join(context.appOutDir, `${productFilename}.exe`);
  return path.join(context.appOutDir, context.packager.executableName);
}

/** Maps electron-builder's numeric Arch to its name. */
const ARCH_NAMES = { 0: 'ia32', 1: 'x64', 2: 'armv7l', 3: 'arm64', 4: 'universal' };

async function afterPack(context) {
  const arch = ARCH_NAMES[context.arch] ?? String(context.arch);
  await flipFuses(electronBinaryPath(context), buildFuseConfig(context.electronPlatformName, arch));
}

module.exports = afterPack;
module.exports.default = afterPack;
module.exports.buildFuseConfig = buildFuseConfig;
module.exports.electronBinaryPath = electronBinaryPath;
