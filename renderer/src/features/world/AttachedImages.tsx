import { useTranslation } from 'react-i18next'
import { useApp } from '../../store'

/** Pictures that will go out with the next prompt, each removable. */
export function AttachedImages() {
  const { t } = useTranslation()
  const images = useApp((s) => s.attachedImages)
  const detach = useApp((s) => s.detachImage)
  if (images.length === 0) return null
  return (
    <ul className="attached-images" aria-label={t('world.attached')}>
      {images.map((image) => (
        <li key={image.itemId}>
          <img src={`data:${image.mime};base64,${image.data_base64}`} alt={image.name} />
          <button
            type="button"
            className="link"
            aria-label={t('world.detach', { name: image.name })}
            onClick={() => detach(image.itemId)}
          >
            ×
          </button>
        </li>
      ))}
    </ul>
  )
}
