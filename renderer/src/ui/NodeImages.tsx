import { memo, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { Node } from '@shared/contract'
import { useApp } from '../store'

type Pictures = NonNullable<Node['metadata']['images']>

/** Each picture read once per window: a card scrolled back into view does not ask again. */
const loaded = new Map<string, Promise<string | null>>()

/**
 * The pictures sent with a prompt, as thumbnails of their picture items; a click opens the item.
 * Read only when the card is on screen (React Flow renders only those).
 */
export const NodeImages = memo(function NodeImages({ images }: { images: Pictures }) {
  const { t } = useTranslation()
  const invoke = useApp((s) => s.invoke)
  const openItem = useApp((s) => s.openItem)
  const [sources, setSources] = useState<Record<string, string | null>>({})
  useEffect(() => {
    let live = true
    for (const image of images) {
      let source = loaded.get(image.item_id)
      if (!source) {
        source = invoke('item_view', { item_id: image.item_id }).then((content) =>
          content?.kind === 'picture' ? `data:${content.mime};base64,${content.data_base64}` : null,
        )
        loaded.set(image.item_id, source)
      }
      void source.then((src) => live && setSources((s) => ({ ...s, [image.item_id]: src })))
    }
    return () => {
      live = false
    }
  }, [images, invoke])
  return (
    <ul className="node-images" aria-label={t('graph.sentPictures')}>
      {images.map((image) => (
        <li key={image.item_id}>
          <button
            type="button"
            className="nodrag"
            aria-label={t('graph.openPicture')}
            onClick={() => openItem(image.item_id)}
          >
            {sources[image.item_id] ? (
              <img src={sources[image.item_id]!} alt="" />
            ) : (
              <span className="node-image-missing" />
            )}
          </button>
        </li>
      ))}
    </ul>
  )
})
