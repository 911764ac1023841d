import type { CastMember, Flow, Node, Persona } from '@shared/contract'
import { nextSpeaker } from '@shared/groupTurns'
import { AppError } from '@shared/errors'
import type { SceneVoices } from '../graph/flowContext'
import type { Language } from '../kernel/language'

/** What a group scene's turn needs of its flow (GraphService.flowInfo). */
export type SceneFlow = Pick<Flow, 'persona_id' | 'cast' | 'turn_order'>

const sceneText = {
  en: {
    note: (self: string, others: string, user: string) =>
      `This is a group scene. Taking part: ${others} and ${user}. You are ${self}: write only ${self}'s next reply, never the others' lines.`,
    nudge: (self: string) => `(${self} speaks next.)`,
    user: 'the user',
  },
  ja: {
    note: (self: string, others: string, user: string) =>
      `これは複数人の場面です。参加者: ${others}、${user}。あなたは${self}です。${self}の次の発言だけを書き、ほかの人の台詞は書かないでください。`,
    nudge: (self: string) => `（次は${self}の番です。）`,
    user: 'ユーザー',
  },
} as const

/** Whether a flow is a group scene (a cast of two or more). */
export function isScene(flow: SceneFlow): flow is SceneFlow & { cast: CastMember[] } {
  return (flow.cast?.length ?? 0) >= 2
}

/** Who spoke a node's reply: its speaker, else the flow's persona (a reply made before the scene had a cast). */
export function speakerOf(n: Node | null, flow: SceneFlow): string | null {
  if (!n?.response) return null
  return n.metadata.speaker_id ?? flow.persona_id
}

/**
 * The member who answers a turn of a scene: `picked` when it is a member (else refused: a
 * persona outside the scene cannot speak in it), or whom the turn order chooses after the reply
 * the turn follows. Null when every member is muted and nobody was picked.
 */
export function chooseSpeaker(
  flow: SceneFlow & { cast: CastMember[] },
  input: { prompt: string; parent: Node | null; picked?: string | null; nameOf: (id: string) => string | undefined },
): string | null {
  if (input.picked && !flow.cast.some((m) => m.persona_id === input.picked))
    throw new AppError('bad_input', `persona ${input.picked} is not a member of this scene`)
  return nextSpeaker({
    cast: flow.cast,
    order: flow.turn_order ?? 'addressed',
    nameOf: input.nameOf,
    prompt: input.prompt,
    lastSpeaker: speakerOf(input.parent, flow),
    lastReply: input.parent?.response,
    picked: input.picked,
  })
}

/**
 * How `self` reads the scene: its own replies as its own, every other member's by name, a note
 * after its system text saying who is there and that it speaks only for itself, and the line
 * that asks it to go on when the user said nothing. Only `self`'s persona text, lorebooks and
 * memory go in (SillyTavern's "swap character cards"): the others are known by their words.
 */
export function sceneVoices(
  flow: SceneFlow & { cast: CastMember[] },
  self: Persona,
  input: { nameOf: (id: string) => string | undefined; userName: string; language: Language },
): SceneVoices & { note: string } {
  const t = sceneText[input.language]
  const others = flow.cast
    .filter((m) => m.persona_id !== self.id)
    .map((m) => input.nameOf(m.persona_id))
    .filter((n): n is string => Boolean(n))
  const list = others.join(input.language === 'ja' ? '、' : ', ')
  return {
    note: t.note(self.name, list, input.userName.trim() || t.user),
    nudge: t.nudge(self.name),
    voiceOf: (n) => {
      const id = speakerOf(n, flow)
      if (!id) return null
      if (id === self.id) return { own: true, name: self.name }
      const name = input.nameOf(id)
      return name ? { own: false, name } : null
    },
  }
}

/**
 * Whose memory keeps a finished turn of a scene: the speaker's as its own words, and every
 * other member's present when it ended (muted ones too: they were there) as something it
 * witnessed, said by the speaker. A member added later never had the turns before it joined;
 * one removed keeps what it saw and sees no more.
 */
export function witnesses(flow: SceneFlow & { cast: CastMember[] }, speakerId: string): string[] {
  return flow.cast.map((m) => m.persona_id).filter((id) => id !== speakerId)
}
