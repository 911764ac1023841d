/** The two Electron IPC channels. Every method travels on one; every event on the other. */
export const IPC_INVOKE = 'loomverse:invoke'
export const IPC_EVENT = 'loomverse:event'
