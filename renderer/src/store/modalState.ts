// What the modal slice holds and offers (its implementation: modalSlice.ts). Apart from it, so
// that the store's whole type (app.ts) names every slice without importing their code.

/** Every dialog by name with its options (Actual Budget's pattern): one place lists them all. */
export type Modal =
  | { name: 'edit_prompt'; nodeId: string }
  | { name: 'delete_node'; nodeId: string }
  | { name: 'flow_settings'; flowId: string }
  | { name: 'personas' }
  | { name: 'providers' }
  | { name: 'programs' }
  | { name: 'tools' }
  | { name: 'onboarding' }
  | { name: 'transfer' }
  | { name: 'stories' }
  | { name: 'backup' }
  | { name: 'lorebooks' }
  | { name: 'scene'; flowId: string }
  | { name: 'mcp_resources' }
  | { name: 'mcp_prompt'; server?: string; prompt?: string }

export interface ModalSlice {
  modal: Modal | null
  openModal(modal: Modal): void
  closeModal(): void
}
