import { randomUUID } from 'node:crypto'
import { AVATAR_MAX_BYTES, type Parsed, type Persona, type PersonaAvatar } from '@shared/contract'
import { AppError } from '@shared/errors'
import type { Db } from '../db/open'
import { statements } from '../db/statements'
import type { Statement } from 'better-sqlite3'
import { isoNow } from '../kernel/time'
import type { EventBus } from '../kernel/events'
import { sniffImage } from '../kernel/imageType'

interface AiRow {
  AIID: string
  AINAME: string
  PERSONA_TEXT: string
  CONTRACT_TEXT: string
  CHAT_MODEL: string | null
  LIGHTWEIGHT_MODEL: string | null
  VISION_MODEL: string | null
  LIGHTWEIGHT_VISION_MODEL: string | null
  EMBEDDING_MODEL: string | null
  IMAGE_MODEL: string | null
  TEMPERATURE: number | null
  MAX_TOKENS: number | null
  MEMORY_PRIVATE: number
  CREATED_AT: string
  UPDATED_AT: string
}

/** Contract field → `ai` column. Only these names ever reach SQL text. */
const columns = {
  name: 'AINAME',
  persona_text: 'PERSONA_TEXT',
  contract_text: 'CONTRACT_TEXT',
  chat_model: 'CHAT_MODEL',
  lightweight_model: 'LIGHTWEIGHT_MODEL',
  vision_model: 'VISION_MODEL',
  lightweight_vision_model: 'LIGHTWEIGHT_VISION_MODEL',
  embedding_model: 'EMBEDDING_MODEL',
  image_model: 'IMAGE_MODEL',
  temperature: 'TEMPERATURE',
  max_tokens: 'MAX_TOKENS',
  memory_private: 'MEMORY_PRIVATE',
} as const

/** Personas (the `ai` table): create, read, update, delete, and tell every window. */
export class PersonaService {
  /** Compiled statements, reused (db/statements.ts). */
  private readonly sql: (sql: string) => Statement
  private readonly deletingListeners = new Set<(personaId: string) => void>()

  constructor(
    private readonly db: Db,
    private readonly bus: EventBus,
  ) {
    this.sql = statements(db)
  }

  list(): Persona[] {
    return (this.sql('SELECT * FROM ai ORDER BY AINAME COLLATE NOCASE, CREATED_AT').all() as AiRow[]).map(toPersona)
  }

  get(id: string): Persona {
    const row = this.sql('SELECT * FROM ai WHERE AIID = ?').get(id) as AiRow | undefined
    if (!row) throw new AppError('not_found', `persona ${id} not found`)
    return toPersona(row)
  }

  /** The persona or null, for callers where "none" is a normal answer (a flow bound to nobody). */
  find(id: string | null | undefined): Persona | null {
    if (!id) return null
    const row = this.sql('SELECT * FROM ai WHERE AIID = ?').get(id) as AiRow | undefined
    return row ? toPersona(row) : null
  }

  create(input: Parsed<'create_persona'>): Persona {
    const id = randomUUID()
    const now = isoNow()
    this.sql('INSERT INTO ai (AIID, AINAME, CREATED_AT, UPDATED_AT) VALUES (?, ?, ?, ?)').run(id, input.name, now, now)
    this.write(id, input)
    return this.changed(id)
  }

  update(input: Parsed<'update_persona'>): Persona {
    this.get(input.id)
    const { id, ...fields } = input
    this.write(id, fields)
    return this.changed(id)
  }

  /**
   * Calls `listener` inside a persona's deletion, in its transaction, so what another domain
   * keeps of the persona (the graph's bound conversations) goes with it or not at all. The
   * composition root wires the other domains here: the persona domain imports none of them.
   */
  onDeleting(listener: (personaId: string) => void): () => void {
    this.deletingListeners.add(listener)
    return () => this.deletingListeners.delete(listener)
  }

  delete(id: string): { id: string } {
    this.get(id)
    this.db
      .transaction(() => {
        for (const listener of this.deletingListeners) listener(id)
        this.sql('DELETE FROM ai WHERE AIID = ?').run(id)
      })
      .immediate()
    this.bus.emit('personas_changed', { personas: this.list() })
    return { id }
  }

  // — whereabouts: the world's buildings are the world's, where a persona stands is its own row

  /** Every persona with the building it stands in, in list order; null for one that never moved. */
  whereabouts(): Array<{ id: string; name: string; building_id: string | null }> {
    return (
      this.sql(
        'SELECT AIID, AINAME, CURRENT_BUILDING_ID FROM ai ORDER BY AINAME COLLATE NOCASE, CREATED_AT',
      ).all() as Array<{
        AIID: string
        AINAME: string
        CURRENT_BUILDING_ID: string | null
      }>
    ).map((r) => ({ id: r.AIID, name: r.AINAME, building_id: r.CURRENT_BUILDING_ID }))
  }

  /** The building a persona stands in; null when it never moved or there is no such persona. */
  building(id: string): string | null {
    return (this.sql('SELECT CURRENT_BUILDING_ID FROM ai WHERE AIID = ?').pluck().get(id) as string | null) ?? null
  }

  /** Puts a persona in a building (the world checks the building); refused for a persona that does not exist. */
  setBuilding(id: string, buildingId: string | null): void {
    this.get(id)
    this.sql('UPDATE ai SET CURRENT_BUILDING_ID = ? WHERE AIID = ?').run(buildingId, id)
  }

  /**
   * Every persona in a building that is going away stands nowhere (the world puts it where the
   * user is): ai.CURRENT_BUILDING_ID was added by ALTER TABLE and cannot carry a foreign key.
   */
  leaveBuilding(buildingId: string): void {
    this.sql('UPDATE ai SET CURRENT_BUILDING_ID = NULL WHERE CURRENT_BUILDING_ID = ?').run(buildingId)
  }

  /** The persona's picture, or null when it has none. */
  avatar(id: string): PersonaAvatar | null {
    const image = this.avatarBytes(id)
    return image && { mime: image.mime, data_base64: image.data.toString('base64') }
  }

  avatarBytes(id: string): { mime: PersonaAvatar['mime']; data: Buffer } | null {
    this.get(id)
    const row = this.sql('SELECT mime, data FROM persona_avatars WHERE persona_id = ?').get(id) as
      { mime: PersonaAvatar['mime']; data: Buffer } | undefined
    return row ?? null
  }

  /**
   * Sets the persona's picture, its type told by its bytes (PNG, JPEG, WebP or GIF, never SVG,
   * which can carry scripts), or removes it with null. Anything else is refused and nothing changes.
   */
  setAvatar(id: string, data: Buffer | null): PersonaAvatar | null {
    this.get(id)
    if (data === null) {
      this.sql('DELETE FROM persona_avatars WHERE persona_id = ?').run(id)
      this.sql('UPDATE ai SET UPDATED_AT = ? WHERE AIID = ?').run(isoNow(), id)
      this.changed(id)
      return null
    }
    const problem = avatarProblem(data)
    if (problem) throw new AppError('bad_input', `data_base64: ${problem}`)
    const mime = sniffImage(data)!.mime
    this.sql(
      `INSERT INTO persona_avatars (persona_id, mime, data, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (persona_id) DO UPDATE SET mime = excluded.mime, data = excluded.data, updated_at = excluded.updated_at`,
    ).run(id, mime, data, isoNow())
    this.sql('UPDATE ai SET UPDATED_AT = ? WHERE AIID = ?').run(isoNow(), id)
    this.changed(id)
    return { mime, data_base64: data.toString('base64') }
  }

  private write(id: string, fields: Partial<Record<keyof typeof columns, unknown>>): void {
    const keys = (Object.keys(fields) as Array<keyof typeof columns>).filter(
      (k) => k in columns && fields[k] !== undefined,
    )
    if (keys.length === 0) return
    const sets = keys.map((k) => `${columns[k]} = @${k}`)
    this.sql(`UPDATE ai SET ${[...sets, 'UPDATED_AT = @now'].join(', ')} WHERE AIID = @id`).run({
      // SQLite keeps a switch as 0 or 1.
      ...Object.fromEntries(keys.map((k) => [k, typeof fields[k] === 'boolean' ? Number(fields[k]) : fields[k]])),
      now: isoNow(),
      id,
    })
  }

  private changed(id: string): Persona {
    this.bus.emit('personas_changed', { personas: this.list() })
    return this.get(id)
  }
}

function toPersona(r: AiRow): Persona {
  return {
    id: r.AIID,
    name: r.AINAME,
    persona_text: r.PERSONA_TEXT,
    contract_text: r.CONTRACT_TEXT,
    chat_model: r.CHAT_MODEL,
    lightweight_model: r.LIGHTWEIGHT_MODEL,
    vision_model: r.VISION_MODEL,
    lightweight_vision_model: r.LIGHTWEIGHT_VISION_MODEL,
    embedding_model: r.EMBEDDING_MODEL ?? null,
    image_model: r.IMAGE_MODEL ?? null,
    temperature: r.TEMPERATURE,
    max_tokens: r.MAX_TOKENS,
    memory_private: r.MEMORY_PRIVATE === 1,
    created: r.CREATED_AT,
    updated: r.UPDATED_AT,
  }
}

/** Why bytes cannot be a persona's picture, in words for the user, or null when they can. */
export function avatarProblem(data: Uint8Array): string | null {
  if (data.length === 0) return 'the picture is empty'
  if (data.length > AVATAR_MAX_BYTES)
    return `the picture is ${data.length} bytes, over the limit of ${AVATAR_MAX_BYTES} (8 MiB)`
  if (!sniffImage(data)) return 'not a PNG, JPEG, WebP or GIF picture'
  return null
}
