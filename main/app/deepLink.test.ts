import { describe, expect, it } from 'vitest'
import { linkHash, linkHashInArgv } from './deepLink'

const FLOW = '0f8c2b9e-6a4d-4c1e-9b7a-2d5e8f1a3c4b'
const NODE = '7d1e4a2b-3c5f-4e6a-8b9c-0d1e2f3a4b5c'

describe('links into the desktop app', () => {
  it('name a conversation and a message, by fragment or by query', () => {
    expect(linkHash(`loomverse://open#flow=${FLOW}&node=${NODE}`)).toBe(`#flow=${FLOW}&node=${NODE}`)
    expect(linkHash(`loomverse://open?flow=${FLOW}&node=${NODE}`)).toBe(`#flow=${FLOW}&node=${NODE}`)
    expect(linkHash(`loomverse://open#flow=${FLOW}`)).toBe(`#flow=${FLOW}`)
  })

  it('carry nothing but ids: another scheme, a missing or malformed id, or script is refused', () => {
    expect(linkHash(`https://example.invalid/#flow=${FLOW}`)).toBeNull()
    expect(linkHash('loomverse://open#node=' + NODE)).toBeNull()
    expect(linkHash(`loomverse://open#flow=${FLOW}');alert(1);('`)).toBeNull()
    expect(linkHash('not a url')).toBeNull()
    // A bad message id still opens the conversation.
    expect(linkHash(`loomverse://open#flow=${FLOW}&node=x"+alert(1)`)).toBe(`#flow=${FLOW}`)
  })

  it('are found among the arguments the OS starts the app with', () => {
    expect(linkHashInArgv(['/opt/Loomverse/loomverse', '--no-sandbox', `loomverse://open#flow=${FLOW}`])).toBe(
      `#flow=${FLOW}`,
    )
    expect(linkHashInArgv(['/opt/Loomverse/loomverse', '.'])).toBeNull()
  })
})
