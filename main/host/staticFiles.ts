import { createReadStream, statSync } from 'node:fs'
import type { ServerResponse } from 'node:http'
import { extname, join, normalize, sep } from 'node:path'

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
}

/**
 * Resolves a URL path inside `root`, or null when it would escape it or names no file.
 * `/` serves index.html: the renderer is one page.
 */
export function resolveStatic(root: string, urlPath: string): string | null {
  let decoded: string
  try {
    decoded = decodeURIComponent(urlPath)
  } catch {
    return null
  }
  if (decoded.includes('\0')) return null
  const relative = decoded === '/' ? 'index.html' : decoded.replace(/^\/+/, '')
  const file = normalize(join(root, relative))
  if (file !== root && !file.startsWith(root.endsWith(sep) ? root : root + sep)) return null
  try {
    return statSync(file).isFile() ? file : null
  } catch {
    return null
  }
}

export function sendFile(res: ServerResponse, file: string, headers: Record<string, string>): void {
  const type = types[extname(file).toLowerCase()] ?? 'application/octet-stream'
  res.writeHead(200, {
    ...headers,
    'Content-Type': type,
    // Built assets carry a content hash; the page itself must always be fresh.
    'Cache-Control': file.endsWith('.html') ? 'no-store' : 'public, max-age=31536000, immutable',
  })
  createReadStream(file).pipe(res)
}
