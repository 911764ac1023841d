/**
 * Whether a process of this machine runs under `pid`. Signal 0 checks that it exists without
 * touching it; EPERM means it exists under another user.
 */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}
