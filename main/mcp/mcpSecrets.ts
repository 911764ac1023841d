import type { McpServerConfig } from '@shared/contract'
import { AppError } from '@shared/errors'
import type { SecretFile } from '../kernel/secretFile'
import { isHttp } from './mcpTransport'

/**
 * The values of a server's `env` and `headers` (API keys, tokens), and the keys in its `args`
 * (SECRET_FLAG, URL_PASSWORD), are kept out of mcp.json:
 * each goes to the secret file (sealed by the OS keychain in the desktop app) and the file holds
 * `${secret:server/KEY}` in its place. `${env:NAME}` (Cursor's form, also read by VS Code) takes
 * the value from the app's own environment and is left in the file as it is.
 */
const SECRET_REF = /^\$\{secret:([^}]+)\}$/
const ENV_REF = /^\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}$/
/** In `args` a reference may stand inside an argument (`--api-key=${secret:s/--api-key}`). */
const SECRET_REFS = /\$\{secret:([^}]+)\}/g
const ANY_REFS = /\$\{(secret|env):([^}]+)\}/g
/**
 * The arguments that carry a key, told apart by their flag: one ending in key, token, secret,
 * password (`--api-key`, `--access-token`, `--client-secret`), never one that only mentions it
 * (`--max-tokens`, `--key-file`). Its value is sealed as env's are.
 */
const SECRET_FLAG = /^--?[A-Za-z0-9_-]*(key|token|secret|password|passwd)$/i
/** A URL's password (`postgresql://me:PASSWORD@host/db`, as database servers take one). */
const URL_PASSWORD = /^([a-z][a-z0-9+.-]*:\/\/)([^:/@\s]+):([^@/\s]+)@([^/?#\s]*)(.*)$/i

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
    /** Files `plain` under this server and returns its reference. */
    const keep = (name: string, plain: string) => {
      const id = `${server}/${name}`
      if (secrets[id] !== plain) {
        secrets[id] = plain
        changed = true
      }
      return secretRef(id)
    }
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
        out[key] = keep(key, plain)
      }
      return out
    }
    const sealed = { ...config } as Record<string, unknown>
    for (const field of sealableOf(config)) {
      const map = (config as Record<string, unknown>)[field] as Record<string, string> | undefined
      if (map) sealed[field] = sealMap(map)
    }
    const args = argsOf(config)
    if (args)
      sealed.args = args.map((arg, i) => {
        // References shown back keep their values, filed under this server (a renamed one takes them along).
        const refiled = arg.replace(SECRET_REFS, (ref, id: string) =>
          secrets[id] === undefined ? ref : keep(id.slice(id.indexOf('/') + 1), secrets[id]),
        )
        if (refiled !== arg) return refiled
        const found = keyInArgs(args, i)
        return found ? found.with(keep(found.name, found.value)) : arg
      })
    if (changed) this.save(secrets)
    return sealed as McpServerConfig
  }

  /** Whether the config holds a value that belongs in the secret file. */
  hasPlain(config: McpServerConfig): boolean {
    const inMaps = sealableOf(config).some((field) =>
      Object.values(((config as Record<string, unknown>)[field] as Record<string, string> | undefined) ?? {}).some(
        (v) => !SECRET_REF.test(v) && !ENV_REF.test(v),
      ),
    )
    return inMaps || (argsOf(config) ?? []).some((_, i, args) => keyInArgs(args, i) !== null)
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
    const args = argsOf(config)
    if (args)
      resolved.args = args.map((arg, i) =>
        // One pass: a key's value is never itself read as a reference.
        arg.replace(ANY_REFS, (ref, kind: string, name: string) => {
          if (kind === 'env') return this.env[name] ?? ''
          const plain = secrets[name]
          if (plain === undefined)
            throw new AppError(
              'unavailable',
              `a value in args[${i}] is not stored on this machine (mcp.json names ${ref}): edit "${server}" and type it again`,
            )
          return plain
        }),
      )
    return resolved as McpServerConfig
  }

  /** Forgets the secrets no server of the file refers to any more. */
  prune(servers: Iterable<McpServerConfig>): void {
    const configs = [...servers]
    const used = new Set<string>()
    for (const config of configs)
      for (const field of sealableOf(config))
        for (const value of Object.values(
          ((config as Record<string, unknown>)[field] as Record<string, string> | undefined) ?? {},
        )) {
          const ref = SECRET_REF.exec(value)
          if (ref) used.add(ref[1]!)
        }
    for (const config of configs)
      for (const arg of argsOf(config) ?? []) for (const m of arg.matchAll(SECRET_REFS)) used.add(m[1]!)
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

/**
 * The key argument `i` holds in plain text, if any: the value of a key flag (`--api-key=K`, or
 * `--api-key K`) or a URL's password; `name` is what it is filed under, `with` the argument with
 * a reference in its place. A value that is already a reference is not a key.
 */
function keyInArgs(
  args: readonly string[],
  i: number,
): { name: string; value: string; with: (ref: string) => string } | null {
  const arg = args[i]!
  if (/\$\{secret:/.test(arg)) return null
  const plain = (value: string) => !ENV_REF.test(value) && !SECRET_REF.test(value)
  const flag = /^(--?[^=]+)=(.+)$/.exec(arg)
  if (flag && SECRET_FLAG.test(flag[1]!) && plain(flag[2]!))
    return { name: flag[1]!, value: flag[2]!, with: (ref) => `${flag[1]}=${ref}` }
  const before = args[i - 1]
  if (before !== undefined && SECRET_FLAG.test(before) && !arg.startsWith('-') && plain(arg))
    return { name: before, value: arg, with: (ref) => ref }
  const url = URL_PASSWORD.exec(arg)
  if (url && !url[3]!.includes('${'))
    return {
      name: `password:${url[2]}@${url[4]}`,
      value: url[3]!,
      with: (ref) => `${url[1]}${url[2]}:${ref}@${url[4]}${url[5]}`,
    }
  return null
}

/** A stdio server's arguments, which may hold keys too (a flag's value, a URL's password). */
function argsOf(config: McpServerConfig): string[] | undefined {
  return isHttp(config) ? undefined : (config as { args?: string[] }).args
}

function sealableOf(config: McpServerConfig): Sealable[] {
  return isHttp(config) ? ['headers'] : ['env']
}
