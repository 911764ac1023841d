import type { McpServerConfig } from '@shared/contract'
import { AppError } from '@shared/errors'
import type { SecretFile } from '../kernel/secretFile'
import { isHttp } from './mcpTransport'

/**
 * The values of a server's `env` and `headers` (API keys, tokens) are kept out of mcp.json:
 * each goes to the secret file (sealed by the OS keychain in the desktop app) and the file holds
 * `${secret:server/KEY}` in its place. `${env:NAME}` (Cursor's form, also read by VS Code) takes
 * the value from the app's own environment and is left in the file as it is.
 */
const SECRET_REF = /^\$\{secret:([^}]+)\}$/
const ENV_REF = /^\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}$/

export function secretRef(id: string): string {
  return `\${secret:${id}}`
}

type Sealable = 'env' | 'headers'

export class McpSecrets {
  private cache: Record<string, string> | null = null

  constructor(
    private readonly file: SecretFile,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  /** Sealed by the OS keychain; false: plain text, owner-only (browser mode). */
  get encrypted(): boolean {
    return this.file.encrypted
  }

  /**
   * The config as mcp.json keeps it: every value of env and headers that is not a reference is
   * stored and replaced by one; a reference to a kept secret (as the UI shows it back) keeps its
   * value, filed under this server's name (a renamed server takes its secrets along).
   */
  seal(server: string, config: McpServerConfig): McpServerConfig {
    const secrets = { ...this.all() }
    let changed = false
    const sealMap = (map: Record<string, string> | undefined) => {
      if (!map) return map
      const out: Record<string, string> = {}
      for (const [key, value] of Object.entries(map)) {
        if (ENV_REF.test(value)) {
          out[key] = value
          continue
        }
        const ref = SECRET_REF.exec(value)
        const plain = ref ? secrets[ref[1]!] : value
        if (plain === undefined) {
          out[key] = value // a secret this machine does not have: left for the user to type again
          continue
        }
        const id = `${server}/${key}`
        if (secrets[id] !== plain) {
          secrets[id] = plain
          changed = true
        }
        out[key] = secretRef(id)
      }
      return out
    }
    const sealed = { ...config } as Record<string, unknown>
    for (const field of sealableOf(config)) {
      const map = (config as Record<string, unknown>)[field] as Record<string, string> | undefined
      if (map) sealed[field] = sealMap(map)
    }
    if (changed) this.save(secrets)
    return sealed as McpServerConfig
  }

  /** Whether the config holds a value that belongs in the secret file. */
  hasPlain(config: McpServerConfig): boolean {
    return sealableOf(config).some((field) =>
      Object.values(((config as Record<string, unknown>)[field] as Record<string, string> | undefined) ?? {}).some(
        (v) => !SECRET_REF.test(v) && !ENV_REF.test(v),
      ),
    )
  }

  /** The config a server is started with: every reference replaced by its value. */
  resolve(server: string, config: McpServerConfig): McpServerConfig {
    const secrets = this.all()
    const resolved = { ...config } as Record<string, unknown>
    for (const field of sealableOf(config)) {
      const map = (config as Record<string, unknown>)[field] as Record<string, string> | undefined
      if (!map) continue
      const out: Record<string, string> = {}
      for (const [key, value] of Object.entries(map)) {
        const secret = SECRET_REF.exec(value)
        const fromEnv = ENV_REF.exec(value)
        if (secret) {
          const plain = secrets[secret[1]!]
          if (plain === undefined)
            throw new AppError(
              'unavailable',
              `the value of ${field}.${key} is not stored on this machine (mcp.json names ${value}): edit "${server}" and type it again`,
            )
          out[key] = plain
        } else if (fromEnv) out[key] = this.env[fromEnv[1]!] ?? ''
        else out[key] = value
      }
      resolved[field] = out
    }
    return resolved as McpServerConfig
  }

  /** Forgets the secrets no server of the file refers to any more. */
  prune(configs: Iterable<McpServerConfig>): void {
    const used = new Set<string>()
    for (const config of configs)
      for (const field of sealableOf(config))
        for (const value of Object.values(
          ((config as Record<string, unknown>)[field] as Record<string, string> | undefined) ?? {},
        )) {
          const ref = SECRET_REF.exec(value)
          if (ref) used.add(ref[1]!)
        }
    const secrets = this.all()
    const kept = Object.fromEntries(Object.entries(secrets).filter(([id]) => used.has(id)))
    if (Object.keys(kept).length !== Object.keys(secrets).length) this.save(kept)
  }

  private all(): Record<string, string> {
    this.cache ??= this.file.read()
    return this.cache
  }

  private save(secrets: Record<string, string>): void {
    this.file.write(secrets)
    this.cache = secrets
  }
}

function sealableOf(config: McpServerConfig): Sealable[] {
  return isHttp(config) ? ['headers'] : ['env']
}
