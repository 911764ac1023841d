// Where a request's allocations come from, for bench/api/spans.ts (SPANS_HEAP=1): V8's sampling
// heap profiler, run from a request's arrival to its first delta, counting objects collected since
// too (a request's garbage is what fills the young generation). Each sample goes to the innermost
// function of the app's own code on its stack; those under the MemoryPack (MemoryService.packFor)
// are also summed apart, as its own cost.
import { Session } from 'node:inspector'

interface ProfileNode {
  callFrame: { functionName: string; url: string }
  selfSize: number
  children: ProfileNode[]
}

/** The app's own code: main/ and shared/, not a package under node_modules. */
const OWN = /\/(main|shared)\//

export function allocationSites() {
  const session = new Session()
  session.connect()
  // An in-process session answers before post() returns.
  const post = <T>(method: string, params?: object): T => {
    let out: T | undefined
    session.post(method, params, (e, r) => {
      if (e) throw e
      out = r as T
    })
    return out!
  }
  post('HeapProfiler.enable')
  const bytes = new Map<string, number>()
  let pack = 0
  let total = 0
  let requests = 0
  let sampling = false

  const walk = (node: ProfileNode, site: string, inPack: boolean) => {
    const { functionName, url } = node.callFrame
    const own = OWN.test(url) && !url.includes('/node_modules/')
    const here = own ? `${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}` : site
    const packed = inPack || (own && functionName === 'packFor')
    if (node.selfSize > 0) {
      bytes.set(here, (bytes.get(here) ?? 0) + node.selfSize)
      total += node.selfSize
      if (packed) pack += node.selfSize
    }
    for (const child of node.children) walk(child, here, packed)
  }

  return {
    /** A request arrived. */
    start(): void {
      if (sampling) return
      post('HeapProfiler.startSampling', {
        samplingInterval: 1024,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      })
      sampling = true
    },
    /** Its first delta went out. */
    stop(): void {
      if (!sampling) return
      sampling = false
      requests++
      const { profile } = post<{ profile: { head: ProfileNode } }>('HeapProfiler.stopSampling')
      walk(profile.head, '(outside the app)', false)
    },
    /** KB a request, the `n` largest sites first, with the total and the MemoryPack's share. */
    report(n: number) {
      const kb = (b: number) => +(b / 1024 / Math.max(1, requests)).toFixed(1)
      const sites = [...bytes]
        .sort((a, b) => b[1] - a[1])
        .slice(0, n)
        .map(([site, b]) => ({ site, kb_per_request: kb(b) }))
      return { total_kb_per_request: kb(total), memory_pack_kb_per_request: kb(pack), sites }
    },
  }
}
