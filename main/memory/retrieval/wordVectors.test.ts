import { closeSync, mkdtempSync, openSync, readSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { loadWordVectors, loadWordVectorsSoon, wordVectors, wordVectorsPath } from './wordVectors'

// The installed file (npm install makes it, scripts/wordVectors.mjs), read once per process.
const model = wordVectors()

function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0
  let x = 0
  let y = 0
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!
    x += a[i]! ** 2
    y += b[i]! ** 2
  }
  return dot / Math.sqrt(x * y)
}

describe('the word vectors file', () => {
  it('is installed, and gives a known word its vector, near a word of like meaning', () => {
    expect(model, `no word vectors at ${wordVectorsPath()}: run npm install`).not.toBeNull()
    // A one-word text's vector points the way the word's does (its weight only scales it).
    const dog = model!.embed('dog')!
    expect(dog).toHaveLength(model!.dims)
    expect(model!.words).toBeGreaterThanOrEqual(60_000)
    expect(cosine(dog, model!.embed('puppy')!)).toBeGreaterThan(cosine(dog, model!.embed('stock')!) + 0.3)
  })

  it('knows no made-up word, and no text made only of them or of Japanese', () => {
    expect(model!.embed('zqxwv blorptang')).toBeNull()
    expect(model!.embed('猫のモモがソファで寝ている。')).toBeNull()
  })

  it('is off, with a line saying where it looked, when the file is missing or is not one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'loomverse-words-'))
    const logs: string[] = []
    expect(loadWordVectors(join(dir, 'words-en.bin'), (m) => logs.push(m))).toBeNull()
    writeFileSync(join(dir, 'other.bin'), 'not vectors at all, just some text')
    expect(loadWordVectors(join(dir, 'other.bin'), (m) => logs.push(m))).toBeNull()
    expect(logs).toEqual([
      expect.stringMatching(/no word vectors at .*words-en\.bin.*without word meanings/),
      expect.stringMatching(/other\.bin is not a word vectors file/),
    ])
  })
})

describe('the file read in the background (as memory starts)', () => {
  it('gives every text the vector the file read at once gives', async () => {
    const soon = await loadWordVectorsSoon(wordVectorsPath(), () => {})
    expect(soon!.words).toBe(model!.words)
    // The first and the last words of the file, and a text of both.
    for (const text of ['the', 'kickboxing', 'we got a new dog', 'the puppy sleeps on the sofa'])
      expect(soon!.embed(text), text).toEqual(model!.embed(text))
  })

  it('is the model replies then use, read once: a reply asking meanwhile reads it at once instead', async () => {
    vi.resetModules()
    const fresh = await import('./wordVectors')
    const warming = fresh.warmWordVectors()
    // A reply before the background read is done: read at once, and the background read keeps it.
    const atOnce = fresh.wordVectors()
    expect(await warming).toBe(atOnce)
    vi.resetModules()
    const other = await import('./wordVectors')
    const warmed = await other.warmWordVectors()
    expect(warmed).not.toBeNull()
    expect(other.wordVectors()).toBe(warmed)
  })

  it('refuses a file cut short, naming it, as the read at once does', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loomverse-words-'))
    const head = Buffer.alloc(64 * 1024)
    const fd = openSync(wordVectorsPath(), 'r')
    readSync(fd, head, 0, head.length, 0)
    closeSync(fd)
    const cut = join(dir, 'cut.bin')
    writeFileSync(cut, head)
    const logs: string[] = []
    expect(await loadWordVectorsSoon(cut, (m) => logs.push(m))).toBeNull()
    expect(loadWordVectors(cut, (m) => logs.push(m))).toBeNull()
    expect(logs).toEqual([expect.stringMatching(/cut\.bin is damaged/), expect.stringMatching(/cut\.bin is damaged/)])
  })
})

describe('a text as its words averaged (SIF)', () => {
  it('puts a paraphrase nearer than an unrelated sentence', () => {
    const [puppy, dog, stocks] = ['I adopted a puppy', 'we got a new dog', 'the stock market fell'].map((t) =>
      model!.embed(t)!,
    )
    expect(cosine(puppy!, dog!)).toBeGreaterThan(cosine(puppy!, stocks!) + 0.2)
  })
})
