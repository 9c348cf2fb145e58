// A device session's label, from its User-Agent: "Mod 1.2.3 (Fabric; Minecraft 1.21.4)" stays as
// the mod sends it; a browser becomes "Firefox on Linux". Printable ASCII only, at most 80 chars.
const browsers: [RegExp, string][] = [
  [/Edg\//, "Edge"],
  [/OPR\//, "Opera"],
  [/Firefox\//, "Firefox"],
  [/Chrome\//, "Chrome"],
  [/Safari\//, "Safari"],
];
const systems: [RegExp, string][] = [
  [/Android/, "Android"],
  [/iPhone|iPad/, "iOS"],
  [/Windows/, "Windows"],
  [/Mac OS X|Macintosh/, "macOS"],
  [/Linux/, "Linux"],
];

export function deviceLabel(userAgent: string | null): string {
  const ua = (userAgent ?? "").replace(/[^\x20-\x7e]/g, "").trim();
  if (!ua) return "unknown device";
  if (ua.startsWith("Mozilla/")) {
    const browser = browsers.find(([re]) => re.test(ua))?.[1] ?? "Browser";
    const system = systems.find(([re]) => re.test(ua))?.[1];
    return system ? `${browser} on ${system}` : browser;
  }
  return ua.length > 80 ? `${ua.slice(0, 79)}…` : ua;
}
