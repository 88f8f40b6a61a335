import ReactMarkdown from "react-markdown";

/**
 * A coordinator's Markdown (campaign instructions) rendered safely: react-markdown builds React
 * elements from the Markdown syntax tree, so raw HTML in the text is shown as text, never
 * interpreted (no rehype-raw), and links with unsafe protocols (javascript:, data:) are dropped.
 */
export function Markdown({ children, className }: { children: string; className?: string }) {
  return (
    <div className={className}>
      <ReactMarkdown>{children}</ReactMarkdown>
    </div>
  );
}
