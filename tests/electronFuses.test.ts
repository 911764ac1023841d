import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'

const config = parse(readFileSync(resolve(import.meta.dirname, '../electron-builder.yml'), 'utf8')) as {
  asar?: boolean | { smartUnpack?: boolean }
  electronFuses?: Record<string, boolean>
}

describe('packaged app: Electron fuses', () => {
  it('turn off running as Node, NODE_OPTIONS and --inspect, and turn on cookie encryption and asar integrity', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableCookieEncryption: true,
      onlyLoadAppFromAsar: true,
      enableEmbeddedAsarIntegrityValidation: true,
    })
  })

  it('package the app in an asar, which onlyLoadAppFromAsar and the integrity check need', () => {
    expect(config.asar).toBeTruthy()
    // Only native files are unpacked (asarUnpack), not the whole package that holds them.
    expect(config.asar).toEqual({ smartUnpack: false })
  })
})
