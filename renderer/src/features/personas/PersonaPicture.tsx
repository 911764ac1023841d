import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { UserRound } from 'lucide-react'
import { useApp } from '../../store'

/** Bytes as base64, a piece at a time (a picture can be megabytes). */
function toBase64(bytes: Uint8Array): string {
  let text = ''
  for (let at = 0; at < bytes.length; at += 0x8000) text += String.fromCharCode(...bytes.subarray(at, at + 0x8000))
  return btoa(text)
}

/**
 * The persona's picture: the one its card brought or one chosen here (PNG, JPEG, WebP or GIF,
 * checked by the host), shown beside its name and written into the cards it exports.
 */
export function PersonaPicture({ personaId, name, updated }: { personaId: string; name: string; updated: string }) {
  const { t } = useTranslation()
  const invoke = useApp((s) => s.invoke)
  const [src, setSrc] = useState<string | null>(null)
  // Read again whenever the persona changes (a new picture touches it): null answers "none" and "failed" alike.
  useEffect(() => {
    let live = true
    void invoke('get_persona_avatar', { id: personaId }).then(
      (a) => live && setSrc(a ? `data:${a.mime};base64,${a.data_base64}` : null),
    )
    return () => {
      live = false
    }
  }, [personaId, updated, invoke])
  const choose = async (file: File) => {
    const data = toBase64(new Uint8Array(await file.arrayBuffer()))
    await invoke('set_persona_avatar', { id: personaId, data_base64: data })
  }
  return (
    <div className="persona-picture">
      {src ? (
        <img src={src} alt={t('persona.pictureOf', { name })} />
      ) : (
        <span className="persona-picture-empty" aria-hidden="true">
          <UserRound size={28} />
        </span>
      )}
      <div className="persona-picture-actions">
        <label className="button-like">
          {src ? t('persona.changePicture') : t('persona.choosePicture')}
          <input
            type="file"
            accept="image/png,image/jpeg,image/webp,image/gif"
            className="visually-hidden"
            aria-label={src ? t('persona.changePicture') : t('persona.choosePicture')}
            onChange={(e) => {
              const file = e.target.files?.[0]
              e.target.value = ''
              if (file) void choose(file)
            }}
          />
        </label>
        {src && (
          <button type="button" onClick={() => void invoke('set_persona_avatar', { id: personaId, data_base64: null })}>
            {t('persona.removePicture')}
          </button>
        )}
      </div>
    </div>
  )
}
