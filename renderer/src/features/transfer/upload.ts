import type { App } from '../../store'

/** The contract takes pieces of at most 8 MB (base64 makes them a third larger on the wire). */
const PIECE = 8 * 1024 * 1024

/**
 * Sends a file the user picked into the data folder's imports/, piece by piece, in order; says
 * how far it got after each. Resolves with the name it was stored under (" (2)" when taken),
 * or null when a piece was refused (the toast says why).
 */
export async function uploadToImports(
  file: File,
  invoke: App['invoke'],
  progress: (bytes: number) => void,
): Promise<string | null> {
  let offset = 0
  do {
    const piece = file.slice(offset, offset + PIECE)
    const bytes = new Uint8Array(await piece.arrayBuffer())
    const final = offset + bytes.length >= file.size
    const r = await invoke('imports_upload', { name: file.name, offset, data_base64: toBase64(bytes), final })
    if (!r) return null
    offset += bytes.length
    progress(offset)
    if (final) return r.name
  } while (offset < file.size)
  return null
}

function toBase64(bytes: Uint8Array): string {
  let binary = ''
  const step = 0x8000 // String.fromCharCode takes a bounded number of arguments
  for (let i = 0; i < bytes.length; i += step) binary += String.fromCharCode(...bytes.subarray(i, i + step))
  return btoa(binary)
}
