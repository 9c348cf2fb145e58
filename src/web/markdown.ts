// The mod's pages are Markdown files in the repository (site/*.md, CHANGELOG.md), embedded in the
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
import changelog from "../../CHANGELOG.md" with { type: "text" };

const marked = new Marked({ gfm: true, async: false });

export type MarkdownPage = { title: string; html: string };

/** The page's title is its first level-one heading. */
function renderMarkdown(text: string): MarkdownPage {
  const title = /^#\s+(.+)$/m.exec(text)?.[1]?.trim() ?? "tally";
  return { title, html: marked.parse(text) as string };
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
} as const;

export type MarkdownPath = keyof typeof sources;
export const markdownPaths = Object.keys(sources) as MarkdownPath[];

const rendered = new Map<MarkdownPath, MarkdownPage>();
export function markdownPage(path: MarkdownPath): MarkdownPage {
  let page = rendered.get(path);
  if (!page) rendered.set(path, (page = renderMarkdown(sources[path])));
  return page;
}
