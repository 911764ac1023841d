/** How many requests one API token may make: a burst, then a steady rate. */
export interface RateLimits {
  burst: number
  perSecond: number
}

export const DEFAULT_RATE_LIMITS: RateLimits = { burst: 60, perSecond: 10 }

/**
 * A token bucket per key (an API token's id): each request takes one; the bucket refills at
 * `perSecond` up to `burst`. `take` answers how many seconds to wait when it is empty.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>()

  constructor(
    private readonly limits: RateLimits,
    private readonly now: () => number = () => performance.now() / 1000,
  ) {}

  /** 0 when the request may go; otherwise the whole seconds until one more would be allowed. */
  take(key: string): number {
    const t = this.now()
    const bucket = this.buckets.get(key) ?? { tokens: this.limits.burst, at: t }
    bucket.tokens = Math.min(this.limits.burst, bucket.tokens + (t - bucket.at) * this.limits.perSecond)
    bucket.at = t
    this.buckets.set(key, bucket)
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1
      return 0
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.limits.perSecond))
  }
}
