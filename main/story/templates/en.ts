import type { TemplateSet } from './types'

// Placeholders in the prompts: {{summary}} the story so far, {{turns}} the turns being folded,
// {{name}} a character, {{sheet}} their sheet, {{log}} an excerpt of the play.

export const en: TemplateSet = {
  prompts: {
    summarization: `You keep the record of an interactive story.

Update the story so far with the new turns below. Keep every fact that may matter later:
who did what, where things are, promises, secrets, injuries, relationships, open threads.
Write in past tense, in English, as plain prose of at most 400 words. Answer with the summary only.

## The story so far
{{summary}}

## New turns
{{turns}}
`,
    character_update: `You maintain the character sheet of {{name}} in an interactive story.

Read the sheet and the latest story so far. Update only what the story changed (state, mood,
relationships, what they know, where they are); keep everything else exactly as written,
headings included. Answer with the whole updated sheet in Markdown and nothing else. If nothing
changed, answer with the sheet unchanged.

## The story so far
{{summary}}

## Current sheet
{{sheet}}
`,
    character_generation: `Write a character sheet in Markdown for {{name}}, based on how they appear in the log below.
Use the headings: # Name, ## Appearance, ## Personality, ## Speech, ## Relationships, ## Current state.
Where the log says nothing, write "unknown" rather than inventing. Answer with the sheet only.

## Log
{{log}}
`,
    log_digest: `Summarise this play log in a few lines for the player who returns to it: where the story stands,
who is present, what was about to happen.

{{log}}
`,
  },
  blank: {
    world: `# World

Describe the world here: its era, places, rules (magic? technology?), and the mood of the story.
`,
    player: `# Player character

- Name:
- Who they are:
- What they want:
`,
    rules: `# Rules for the game master

- You are the game master and narrator. Describe the scene and play every character except the player's.
- Never decide what the player character says, thinks or does.
- Keep to the world and the character sheets; keep secrets until they are discovered in play.
- End each reply at a moment where the player can act.
`,
    opening: `# Opening scene

Write the scene the story begins with.
`,
    characters: {
      'character.md': `# Character

## Appearance

## Personality

## Speech

## Relationships

## Current state
`,
    },
  },
  fantasy: {
    world: `# World: the Kingdom of Aster

A small kingdom of forests and river towns. Magic is rare and feared; the old watchtowers along
the border are said to be haunted. The capital, Lumen, is ruled by an ageing queen whose heir
vanished a year ago.
`,
    player: `# Player character

- Name: Rowan
- A travelling cartographer with a good memory and a bad sense of direction.
- Wants: to map the border and find out what happened to the missing heir.
`,
    rules: `# Rules for the game master

- You narrate in the second person ("you see…"), in vivid but brief prose (at most three paragraphs).
- Play every character but Rowan. Never decide Rowan's words or actions.
- Magic has a price; fights are dangerous; choices have consequences that are remembered.
- End each reply with a situation the player can act on.
`,
    opening: `# Opening scene

Rain drums on the roof of the Crooked Lantern inn at the edge of the border forest. A hooded
woman at the corner table has been watching you since you came in. When the innkeeper turns
away, she slides a folded map across to you — your own handwriting, a map you never drew.
`,
    characters: {
      'mira.md': `# Mira

## Appearance
Hooded, grey eyes, a burn scar across her left hand.

## Personality
Guarded, quick-witted, loyal once trust is earned.

## Speech
Short sentences. Never says her family name.

## Relationships
Unknown to Rowan at the start.

## Current state
Hiding from the queen's guard at the Crooked Lantern.
`,
      'innkeeper_bram.md': `# Bram, the innkeeper

## Appearance
Broad, bald, apron stained with wine.

## Personality
Friendly, nosy, frightened of the watchtowers.

## Speech
Talks a lot, calls everyone "friend".

## Relationships
Owes Mira a favour.

## Current state
Serving the evening crowd.
`,
    },
  },
  school: {
    world: `# World: Seiran High School

A hillside high school in a seaside town, an ordinary spring term. The old music room in the
north wing is closed, but a piano can be heard from it after school.
`,
    player: `# Player character

- Name: Aoi
- A second-year student who just transferred in; curious, a little stubborn.
- Wants: to make a friend and find out who plays the piano.
`,
    rules: `# Rules for the game master

- Narrate everyday school life with warmth and a touch of mystery; no violence.
- Play every character but Aoi. Never decide Aoi's words or actions.
- Characters have their own plans and remember how Aoi treated them.
- End each reply where Aoi can act.
`,
    opening: `# Opening scene

It is your first day at Seiran. The homeroom teacher has just introduced you, and the seat
you were given is next to a girl who has not looked up from her sketchbook once.
Through the open window, faintly, someone is playing the piano.
`,
    characters: {
      'haru.md': `# Haru

## Appearance
Short hair, ink on her fingers, always carries a sketchbook.

## Personality
Quiet, observant, secretly funny.

## Speech
Answers questions with questions.

## Relationships
Sits next to Aoi. Knows something about the music room.

## Current state
Drawing, pretending not to notice the new student.
`,
    },
  },
}
