/** One reversible step of a graph edit. `apply` must be safe to run again after `revert`. */
export interface Change {
  apply(): void
  revert(): void
}

export interface Edit {
  label: string
  changes: Change[]
  /** Nodes whose content or presence the edit changed. */
  touched: string[]
}

const LIMIT = 200

/**
 * Undo/redo per flow, kept in the main process so every window shares one history.
 * An edit is the list of primitive changes it made; undo reverts them in reverse order.
 * History lives for the session: it is not written to disk.
 */
export class UndoHistory {
  private readonly stacks = new Map<string, { done: Edit[]; undone: Edit[] }>()

  record(flowId: string, edit: Edit): void {
    if (edit.changes.length === 0) return
    const stack = this.stack(flowId)
    stack.done.push(edit)
    if (stack.done.length > LIMIT) stack.done.shift()
    stack.undone = []
  }

  /** Takes the newest edit off the undo stack (the caller reverts it) and onto the redo stack. */
  popUndo(flowId: string): Edit | null {
    const stack = this.stack(flowId)
    const edit = stack.done.pop() ?? null
    if (edit) stack.undone.push(edit)
    return edit
  }

  popRedo(flowId: string): Edit | null {
    const stack = this.stack(flowId)
    const edit = stack.undone.pop() ?? null
    if (edit) stack.done.push(edit)
    return edit
  }

  state(flowId: string) {
    const { done, undone } = this.stack(flowId)
    return {
      can_undo: done.length > 0,
      can_redo: undone.length > 0,
      undo_label: done.at(-1)?.label ?? null,
      redo_label: undone.at(-1)?.label ?? null,
    }
  }

  forget(flowId: string): void {
    this.stacks.delete(flowId)
  }

  private stack(flowId: string) {
    let s = this.stacks.get(flowId)
    if (!s) {
      s = { done: [], undone: [] }
      this.stacks.set(flowId, s)
    }
    return s
  }
}
