import { NodeText } from '@shared/contract'

// Every limit an import holds a file to, in one place (README, "Import limits"). A file is
// anything the user was sent: its size on disk, the text it would inflate to, the shape of
// what it describes and what it would make must all be bounded before the work is done,
// never discovered by running out of memory. Genuine files stay far below each limit; one
// over it is refused with `bad_file`, naming the file and the limit.

const MiB = 1024 * 1024

/** The longest text one field may bring in (a prompt, a reply, a card's description): what create_node takes. */
export const IMPORT_TEXT_MAX: number = NodeText.maxLength ?? 2_000_000

// ---- sizes on disk, checked before a byte is read

/** ChatGPT's `conversations.json` is parsed whole, and V8 cannot hold a longer string. */
export const MAX_CHATGPT_EXPORT_BYTES = 500 * MiB
/** A card with an embedded picture is rarely over a few MB; this leaves room for large artwork. */
export const MAX_CARD_BYTES = 50 * MiB
/** A chat log (JSONL or transcript) is streamed: a few million lines. */
export const MAX_CHAT_LOG_BYTES = 256 * MiB
/** LoCoMo JSON is parsed whole; the published set of ten conversations is 3 MB. */
export const MAX_LOCOMO_BYTES = 64 * MiB
/**
 * A VizPrompt node file: prompt and reply at IMPORT_TEXT_MAX are 12 MB of UTF-8 at most
 * (3 bytes a character), with room for the summary, the error and the markup.
 */
export const MAX_NODE_FILE_BYTES = 32 * MiB
/** A VizPrompt flow, map or index: a line or a few per node, so room for some 100,000 nodes. */
export const MAX_LISTING_FILE_BYTES = 64 * MiB
/** VizPrompt's config.yaml: a few settings. */
export const MAX_CONFIG_FILE_BYTES = 1 * MiB

// ---- what a file may unpack to and describe

/**
 * The text a card picture's compressed chunks may inflate to, all chunks together (and the files a
 * CHARX card's zip inflates, together): as much as the card could carry uncompressed in a file of
 * MAX_CARD_BYTES. Inflating stops there, so a small chunk that would inflate to gigabytes costs no
 * more memory than this.
 */
export const MAX_CARD_INFLATED_BYTES = MAX_CARD_BYTES
/**
 * Elements or collections nested deeper than this are refused before a parser that recurses
 * meets them (a stack overflow names no file or line): VizPrompt's XML and YAML, and the JSON of
 * cards and lorebooks. Loomverse writes four levels at most; a card or book's JSON has some six.
 */
export const MAX_NESTING = 32
/** Conversations in one ChatGPT export; a long-time user has a few thousand. */
export const MAX_IMPORT_CONVERSATIONS = 100_000
/** Messages of one imported conversation, and so nodes of the flow it makes. */
export const MAX_IMPORT_MESSAGES = 200_000
/**
 * Nodes one under another in an imported flow (its longest line from the start): the active
 * path and the context of a reply walk that line whole, on every turn.
 */
export const MAX_IMPORT_DEPTH = 100_000
/**
 * Characters of prompt and reply text one imported conversation may make. A reply shared by
 * branches below it is copied into each, so a small file could otherwise make far more text
 * than it holds.
 */
export const MAX_IMPORT_FLOW_TEXT = 64 * MiB
/** The same for a whole file: as many characters as the largest export holds bytes. */
export const MAX_IMPORT_FILE_TEXT = MAX_CHATGPT_EXPORT_BYTES
/** Greetings of one character card (the first and the alternates): each becomes a branch. */
export const MAX_CARD_GREETINGS = 1_000
/**
 * Files in a CHARX card (a zip): the card and its assets — an icon, emotions, backgrounds. Each
 * entry's name is read and checked; only the card and its main icon are inflated.
 */
export const MAX_CHARX_ENTRIES = 2_000
/**
 * Entries of one lorebook, from a World Info file, a NovelAI .lorebook or a card's
 * character_book; real ones hold tens to a few hundred.
 */
export const MAX_BOOK_ENTRIES = 10_000
/**
 * A lorebook file's text (a window reads it and sends it whole, so it is parsed at once): the
 * largest books shared hold a few MB.
 */
export const MAX_LOREBOOK_CHARS = 16 * MiB

/** A byte size as a person reads it: "50 MiB", or "1.5 MiB". */
export function mebibytes(bytes: number): string {
  const mib = bytes / MiB
  return Number.isInteger(mib) ? `${mib} MiB` : `${mib.toFixed(1)} MiB`
}
