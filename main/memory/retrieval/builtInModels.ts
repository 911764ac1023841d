import { isSentenceModel } from './sentenceModel'
import { isWordsModel } from './wordVectors'

/**
 * The embedding models that ship with the app (the sentence model, the word model): local and
 * free, so each turn's sentences are embedded too, an import with no LLM still embeds, and they
 * read English only (on Japanese their neighbours are noise; the words and n-grams serve it).
 */
export function isBuiltInModel(model: string | null | undefined): boolean {
  return isSentenceModel(model) || isWordsModel(model)
}
