/** A dropped or pasted file as base64 (without the data-URL prefix), for `picture_upload`. */
export function readFileBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => {
      const url = String(reader.result)
      resolve(url.slice(url.indexOf(',') + 1))
    }
    reader.onerror = () => reject(reader.error ?? new Error('could not read the file'))
    reader.readAsDataURL(file)
  })
}

/** Files in a drop or paste; the main process decides from their bytes whether they are images. */
export function filesOf(data: DataTransfer | null): File[] {
  if (!data) return []
  return Array.from(data.files)
}
