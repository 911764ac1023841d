import { openSync, readSync, statSync } from 'node:fs'
import { LRUCache } from 'lru-cache'

/**
 * A file read in blocks of `blockSize`, the latest `blocksKept` kept. A binary search over a
 * sorted file (WordNet's index.noun) makes its first probes at the same places for every key
 * and its last ones within one block, so a new key costs a few reads instead of ~17: a query's
 * new words took ~1 ms of a reply's MemoryPack when each probe read the file.
 */
export class BlockReader {
  private readonly fd: number
  readonly size: number
  private readonly blocks: LRUCache<number, Buffer>

  constructor(
    path: string,
    private readonly blockSize: number,
    blocksKept: number,
  ) {
    this.fd = openSync(path, 'r')
    this.size = statSync(path).size
    this.blocks = new LRUCache({ max: blocksKept })
  }

  /** Up to `length` bytes from `position` (fewer at the end of the file). */
  at(position: number, length: number): Buffer {
    const first = Math.floor(position / this.blockSize)
    const last = Math.floor((position + length - 1) / this.blockSize)
    const blocks: Buffer[] = []
    for (let b = first; b <= last; b++) blocks.push(this.block(b))
    const bytes = blocks.length === 1 ? blocks[0]! : Buffer.concat(blocks)
    const from = position - first * this.blockSize
    return bytes.subarray(from, Math.min(from + length, bytes.length))
  }

  private block(index: number): Buffer {
    let kept = this.blocks.get(index)
    if (!kept) {
      const bytes = Buffer.allocUnsafe(this.blockSize)
      kept = bytes.subarray(0, readSync(this.fd, bytes, 0, this.blockSize, index * this.blockSize))
      this.blocks.set(index, kept)
    }
    return kept
  }
}
