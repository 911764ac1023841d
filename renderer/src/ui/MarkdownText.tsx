import { memo } from 'react'
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

/** Markdown as the app shows it everywhere: GFM tables, task lists and strikethrough, highlighted code. */
export const MarkdownText = memo(function MarkdownText({ text }: { text: string }) {
  return (
    <div className="md">
      <Markdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={components}>
        {text}
      </Markdown>
    </div>
  )
})
