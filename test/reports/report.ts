// A valid bug report body, with fields replaced by `over`.
export const report = (over: Record<string, unknown> = {}) => ({
  schema: 1,
  modVersion: "1.2.0",
  minecraft: "1.21.4",
  loader: "fabric",
  title: "Crash while reading dungeon chat",
  ...over,
});
