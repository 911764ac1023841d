import type { Provider } from './types'

export const defaultModels: Record<Provider, string[]> = {
  openai: ['gpt-4o-mini', 'gpt-4o', 'text-embedding-3-small', 'gpt-image-1', 'dall-e-3'],
  // No Imagen: Google shut it down on the Gemini API, so a real server lists none either.
  gemini: [
    'gemini-2.5-flash',
    'gemini-2.0-flash',
    'gemini-embedding-001',
    'text-embedding-004',
    'gemini-2.5-flash-image',
  ],
  ollama: ['llama3.2:latest', 'nomic-embed-text:latest'],
}

/** Ollama treats a name without a tag as `:latest`; the other providers compare names as they are. */
export function sameModel(provider: Provider, a: string, b: string): boolean {
  if (provider !== 'ollama') return a === b
  return withTag(a) === withTag(b)
}

function withTag(name: string): string {
  return name.includes(':') ? name : `${name}:latest`
}
