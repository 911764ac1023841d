type RowArray = Float64Array | Float32Array | Int8Array | Uint8Array | Uint32Array

/** A copy of `old` in a new array of `length` (the rest zero): a partition's room made larger. */
export function grownArray<T extends RowArray>(old: T, length: number): T {
  const next = new (old.constructor as new (n: number) => T)(length)
  next.set(old)
  return next
}
