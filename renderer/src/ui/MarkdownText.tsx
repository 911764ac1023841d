import { memo, type ReactElement } from 'react'
import Markdown, { type Components } from 'react-markdown'
import rehypeHighlight from 'rehype-highlight'
import remarkGfm from 'remark-gfm'
import './markdown.css'

// Links open outside the app: a new window is what Electron's window-open handler sends to the
// system browser (a plain click would navigate the app away, and Electron refuses that, so the
// link did nothing); in browser mode it is a new tab. Raw HTML in the text is never rendered.
const components: Components = {
  a: ({ node: _node, ...props }) => <a {...props} target="_blank" rel="noopener noreferrer" />,
}
const remarkPlugins = [remarkGfm]
const rehypePlugins = [rehypeHighlight]

/**
 * The rendered trees of the texts shown lately, newest last. Parsing and highlighting are the
 * dear part of a message: a turn scrolled back into the transcript (or a card into the canvas)
 * reuses its tree instead of parsing its text again. React elements are immutable, so one tree
 * may be mounted in several places.
 */
const rendered = new Map<string, ReactElement>()
const RENDERED_MAX = 400

/** Markdown as the app shows it everywhere: GFM tables, task lists and strikethrough, highlighted code. */
export const MarkdownText = memo(function MarkdownText({ text }: { text: string }) {
  let tree = rendered.get(text)
  if (tree) rendered.delete(text)
  // Markdown is a plain function of its props (no hooks), so its result can be kept.
  else tree = Markdown({ remarkPlugins, rehypePlugins, components, children: text })
  rendered.set(text, tree)
  if (rendered.size > RENDERED_MAX) rendered.delete(rendered.keys().next().value!)
  return <div className="md">{tree}</div>
})
