// electron-builder beforeBuild hook: puts sqlite-vec's package for the build's target into
// node_modules before packaging. npm installs only the host's (an x64 build on an arm64 runner
// would ship without its vec0 library); scripts/packageCheck.mjs verifies the outcome.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { vecLibraryPath } from './packageCheck.mjs'
import { electronBuildEnv } from './electronNative.mjs'

/** The npm package holding vec0 for a platform and architecture, e.g. sqlite-vec-windows-x64. */
export function vecPackageFor(platform, arch) {
  return vecLibraryPath(platform, arch).split(/[\\/]/)[1]
}

/** The npm command that adds it without touching package.json or the lock file. */
export function vecInstallArgs(platform, arch, version) {
  return ['install', '--no-save', '--no-package-lock', '--force', `${vecPackageFor(platform, arch)}@${version}`]
}

/**
 * electron-builder beforeBuild: { appDir, platform: { nodeName }, arch }. Resolves to true so that
 * electron-builder still rebuilds and collects node_modules (false would mean we did it ourselves).
 */
export default async function beforeBuild(context) {
  const platform = context.platform.nodeName
  const arch = context.arch
  const library = join(context.appDir, vecLibraryPath(platform, arch))
  if (existsSync(library)) return true
  const version = JSON.parse(
    readFileSync(join(context.appDir, 'node_modules', 'sqlite-vec', 'package.json'), 'utf8'),
  ).version
  console.log(`Adding ${vecPackageFor(platform, arch)}@${version} for this ${platform}-${arch} build`)
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
  const result = spawnSync(npm, vecInstallArgs(platform, arch, version), {
    cwd: context.appDir,
    stdio: 'inherit',
    env: electronBuildEnv(process.env),
    shell: process.platform === 'win32',
  })
  if (result.status !== 0 || !existsSync(library)) {
    throw new Error(`sqlite-vec for ${platform}-${arch} could not be installed (${vecPackageFor(platform, arch)})`)
  }
  return true
}
