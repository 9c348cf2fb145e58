// Files imported `with { type: "text" }` (Markdown pages, the stylesheet, the icon): Bun embeds their text in
// the binary at build time.
declare module "*.md" {
  const text: string;
  export default text;
}
declare module "*.css" {
  const text: string;
  export default text;
}
declare module "*.svg" {
  const text: string;
  export default text;
}
