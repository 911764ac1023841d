import type { ToolSpec } from '../llm/types'

// The seed's tool schemas, word for word, so a persona sees the same tools as in SAIVerse.

export const itemViewTool: ToolSpec = {
  name: 'item_view',
  description:
    'View the full content of a picture or document item. Returns image data for pictures and full text for documents.',
  parameters: {
    type: 'object',
    properties: { item_id: { type: 'string', description: 'Identifier of the item to view.' } },
    required: ['item_id'],
  },
}

export const documentCreateTool: ToolSpec = {
  name: 'document_create',
  description: 'Create a new document item with text content and place it in the current building.',
  parameters: {
    type: 'object',
    properties: {
      name: { type: 'string', description: "Name of the document (e.g., '私の日記', 'SAIVerse使い方ガイド')." },
      description: {
        type: 'string',
        description: 'Brief description of the document. This will be visible in item lists.',
      },
      content: { type: 'string', description: 'Full text content of the document.' },
    },
    required: ['name', 'description', 'content'],
  },
}

export const itemUseTool: ToolSpec = {
  name: 'item_use',
  description:
    'Use an item to apply effects. action_json is a JSON string: {"action_type": "update_description", "description": "..."} for any item, or {"action_type": "patch_content", "patch": "..."} for documents (text to append, or a unified diff).',
  parameters: {
    type: 'object',
    properties: {
      item_id: { type: 'string', description: 'Identifier of the item to use.' },
      action_json: { type: 'string', description: 'JSON string with action details.' },
    },
    required: ['item_id', 'action_json'],
  },
}

export const generateImageTool: ToolSpec = {
  name: 'generate_image',
  description: 'Generate an image from a prompt. The picture becomes an item in the current building automatically.',
  parameters: {
    type: 'object',
    properties: { prompt: { type: 'string', description: 'What the image should show.' } },
    required: ['prompt'],
  },
}

export const worldTools: readonly ToolSpec[] = [itemViewTool, documentCreateTool, itemUseTool, generateImageTool]
