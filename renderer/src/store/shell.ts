import { create } from 'zustand'

/** What the command palette lists: its commands, or one of the pickers a command opens. */
export type PaletteMode = 'commands' | 'conversations' | 'personas'

/**
 * The shell's own passing state (palette, shortcuts list, settings popover): nothing in it is
 * saved or sent, and no slice of the app store needs it, so it lives apart.
 */
export interface ShellState {
  palette: PaletteMode | null
  shortcutsOpen: boolean
  settingsOpen: boolean
  openPalette(mode?: PaletteMode): void
  closePalette(): void
  setShortcutsOpen(open: boolean): void
  setSettingsOpen(open: boolean): void
}

export const useShell = create<ShellState>()((set) => ({
  palette: null,
  shortcutsOpen: false,
  settingsOpen: false,
  openPalette: (mode = 'commands') => set({ palette: mode, shortcutsOpen: false, settingsOpen: false }),
  closePalette: () => set({ palette: null }),
  setShortcutsOpen: (open) => set({ shortcutsOpen: open, palette: null }),
  setSettingsOpen: (open) => set({ settingsOpen: open, palette: null }),
}))
