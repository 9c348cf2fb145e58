// The mod's pages are Markdown files in the repository (site/*.md, and the two documents of docs/ a
// client's author reads: the protocol and the architecture), embedded in the
// binary as text and rendered once, on first use, with marked (which compiles into the binary).
// The text is ours: it is trusted as the templates are.
import { Marked } from "marked";
import home from "../../site/home.md" with { type: "text" };
import features from "../../site/features.md" with { type: "text" };
import fork from "../../site/fork.md" with { type: "text" };
import privacy from "../../site/privacy.md" with { type: "text" };
import docsIndex from "../../site/docs/index.md" with { type: "text" };
import docsStatistics from "../../site/docs/statistics.md" with { type: "text" };
import docsUploads from "../../site/docs/uploads.md" with { type: "text" };
import docsTokens from "../../site/docs/tokens.md" with { type: "text" };
import docsMoving from "../../site/docs/moving.md" with { type: "text" };
import changelog from "../../site/changelog.md" with { type: "text" };
import protocol from "../../docs/protocol.md" with { type: "text" };
import architecture from "../../docs/architecture.md" with { type: "text" };

const marked = new Marked({ gfm: true, async: false });

/** A heading's anchor as GitHub makes it, so a document's contents link the same on both. */
const anchor = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\w\- ]/g, "")
    .replaceAll(" ", "-");
/** The documents of docs/ link each other as `name.md`; on the site they are /docs/<name>. */
const SERVED_DOCS = new Set(["protocol", "architecture"]);
const docsMarked = new Marked(
  { gfm: true, async: false },
  {
    renderer: {
      heading({ tokens, depth, text }) {
        const inner = this.parser.parseInline(tokens);
        return depth === 1 ? `<h1>${inner}</h1>\n` : `<h${depth} id="${anchor(text)}">${inner}</h${depth}>\n`;
      },
    },
    walkTokens(token) {
      if (token.type !== "link") return;
      const doc = /^([a-z-]+)\.md(#[\w-]*)?$/.exec(token.href);
      if (doc && SERVED_DOCS.has(doc[1]!)) token.href = `/docs/${doc[1]}${doc[2] ?? ""}`;
    },
  },
);

export type MarkdownPage = { title: string; html: string };

/** The page's title is its first level-one heading. */
function renderMarkdown(text: string, renderer = marked): MarkdownPage {
  const title = /^#\s+(.+)$/m.exec(text)?.[1]?.trim() ?? "tally";
  return { title, html: renderer.parse(text) as string };
}

const sources = {
  "/": home,
  "/features": features,
  "/fork": fork,
  "/changelog": changelog,
  "/assets/privacy.html": privacy,
  "/docs/": docsIndex,
  "/docs/statistics": docsStatistics,
  "/docs/uploads": docsUploads,
  "/docs/tokens": docsTokens,
  "/docs/moving": docsMoving,
  "/docs/protocol": protocol,
  "/docs/architecture": architecture,
} as const;
const fromDocs = new Set<string>(["/docs/protocol", "/docs/architecture"]);

export type MarkdownPath = keyof typeof sources;
export const markdownPaths = Object.keys(sources) as MarkdownPath[];

const rendered = new Map<MarkdownPath, MarkdownPage>();
export function markdownPage(path: MarkdownPath): MarkdownPage {
  let page = rendered.get(path);
  if (!page) rendered.set(path, (page = renderMarkdown(sources[path], fromDocs.has(path) ? docsMarked : marked)));
  return page;
}
