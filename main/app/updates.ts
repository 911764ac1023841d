/**
 * Automatic updates (electron-updater, GitHub Releases). Off until configured: electron-builder
 * writes app-update.yml into the app's resources only when electron-builder.yml has a publish
 * entry, and a development run has none. LOOMVERSE_UPDATES=0 turns checks off in a packaged app.
 */
export interface UpdatePolicyInput {
  packaged: boolean
  updateConfigPresent: boolean
  env: Record<string, string | undefined>
}

export function updatesEnabled({ packaged, updateConfigPresent, env }: UpdatePolicyInput): boolean {
  if (env.LOOMVERSE_UPDATES === '0') return false
  return packaged && updateConfigPresent
}

/** The non-blocking notice once an update is downloaded: it installs when the app quits. */
export function updateReadyNotice(version: string): { title: string; body: string } {
  return {
    title: 'Loomverse update ready',
    body: `Version ${version} will be installed when you quit Loomverse.`,
  }
}
