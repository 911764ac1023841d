import buildForE2e from '../../e2e/globalSetup'

let built = false

/**
 * The crash and frame checks run the built app (`bin/loomverse.js serve`), as e2e does: build
 * it once per process, the same way e2e's global setup does (LOOMVERSE_E2E_SKIP_BUILD skips it).
 */
export function buildAppOnce(): void {
  if (built) return
  buildForE2e()
  built = true
}
