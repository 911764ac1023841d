import type { Language } from '../kernel/language'

/** What the world says to people (tool results, errors a user sees), in the UI language. */
export type WorldLanguage = Language

const texts = {
  ja: {
    notViewable: 'このアイテムは view 操作に対応していません。',
    notImage: (name: string) =>
      `「${name}」は対応している画像ではありません（PNG・JPEG・WebP・GIF のみ）。何も保存していません。`,
    svg: (name: string) => `「${name}」は SVG です。SVG はスクリプトを含みうるため受け付けていません。`,
    tooBig: (name: string, mb: number) => `「${name}」は大きすぎます（上限 ${mb} MB）。何も保存していません。`,
    tooManyPixels: (name: string, w: number, h: number, max: number) =>
      `「${name}」は ${w}×${h} ピクセルで、上限の ${max} 万ピクセルを超えています。何も保存していません。`,
    badHeader: (name: string) => `「${name}」の画像ヘッダーが壊れています。何も保存していません。`,
    noPatchOnType: (type: string) => `patch_content は document にだけ使えます（このアイテムは ${type} です）。`,
    patchFailed: (reason: string) => `パッチを適用できませんでした。文書は変更していません: ${reason}`,
    described: '説明を更新しました。',
    patched: (mode: string): string =>
      mode === 'append'
        ? '文書に追記しました。要約を作り直しています。'
        : '差分を適用しました。要約を作り直しています。',
    created: (id: string, name: string) => `文書「${name}」を作成しました（item_id: ${id}）。`,
    noImageModel:
      '画像生成のモデルが設定されていません。ペルソナ設定の「画像生成」（または LOOMVERSE_IMAGE_MODEL）で選んでください。',
    generated: (id: string, name: string) => `画像「${name}」を生成しました（item_id: ${id}）。`,
    noBuilding: '建物がありません。先に建物を作ってください。',
  },
  en: {
    notViewable: 'This item does not support the view operation.',
    notImage: (name: string) => `"${name}" is not a supported image (PNG, JPEG, WebP or GIF only). Nothing was stored.`,
    svg: (name: string) => `"${name}" is an SVG. SVG files can carry scripts, so they are not accepted.`,
    tooBig: (name: string, mb: number) => `"${name}" is too large (the limit is ${mb} MB). Nothing was stored.`,
    tooManyPixels: (name: string, w: number, h: number, max: number) =>
      `"${name}" is ${w}×${h} pixels, over the limit of ${max / 100} megapixels. Nothing was stored.`,
    badHeader: (name: string) => `"${name}" has a broken image header. Nothing was stored.`,
    noPatchOnType: (type: string) => `patch_content works on documents only (this item is a ${type}).`,
    patchFailed: (reason: string) => `The patch could not be applied; the document is unchanged: ${reason}`,
    described: 'Description updated.',
    patched: (mode: string) =>
      mode === 'append'
        ? 'Appended to the document. Its summary is being rebuilt.'
        : 'Diff applied. Its summary is being rebuilt.',
    created: (id: string, name: string) => `Created the document "${name}" (item_id: ${id}).`,
    noImageModel:
      'No image model is set: choose one under Pictures in the persona’s settings (or set LOOMVERSE_IMAGE_MODEL).',
    generated: (id: string, name: string) => `Generated the picture "${name}" (item_id: ${id}).`,
    noBuilding: 'There is no building yet. Create one first.',
  },
}

export type WorldTexts = (typeof texts)['ja']

export function worldTexts(language: WorldLanguage): WorldTexts {
  return texts[language]
}
