import { useEffect } from 'react'
import { useAppStore } from '../../store'
import { filesOf, readFileBase64 } from './readImageFile'

/**
 * Dropping a file anywhere on the window (the graph, the composer) or pasting an image
 * stores it as a picture in the user's building and attaches it to the next prompt.
 * Text pastes are left alone.
 */
export function useImageDrop(): void {
  const store = useAppStore()
  useEffect(() => {
    const upload = async (files: File[]) => {
      for (const file of files) {
        const data_base64 = await readFileBase64(file)
        await store.getState().uploadPicture({ name: file.name || 'pasted image', data_base64 })
      }
    }
    const onDragOver = (e: DragEvent) => {
      if (!e.dataTransfer?.types.includes('Files')) return
      e.preventDefault() // without this the browser opens the file instead of dropping it
      e.dataTransfer.dropEffect = 'copy'
      document.documentElement.classList.add('dropping-file')
    }
    const onDragLeave = (e: DragEvent) => {
      if (e.relatedTarget === null) document.documentElement.classList.remove('dropping-file')
    }
    const onDrop = (e: DragEvent) => {
      document.documentElement.classList.remove('dropping-file')
      const files = filesOf(e.dataTransfer)
      if (files.length === 0) return
      e.preventDefault()
      void upload(files)
    }
    const onPaste = (e: ClipboardEvent) => {
      const files = filesOf(e.clipboardData).filter((f) => f.type.startsWith('image/'))
      if (files.length === 0) return
      e.preventDefault()
      void upload(files)
    }
    window.addEventListener('dragover', onDragOver)
    window.addEventListener('dragleave', onDragLeave)
    window.addEventListener('drop', onDrop)
    window.addEventListener('paste', onPaste)
    return () => {
      window.removeEventListener('dragover', onDragOver)
      window.removeEventListener('dragleave', onDragLeave)
      window.removeEventListener('drop', onDrop)
      window.removeEventListener('paste', onPaste)
    }
  }, [store])
}
