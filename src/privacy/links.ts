// A player's name in a link a report holds (issue 36, session 26, from the development part's bug
// reports): a stats site's or a profile's address names the player in its path
// ("sky.shiiyu.moe/stats/fire__ferret/Strawberry", "plancke.io/hypixel/player/stats/sakies",
// "namemc.com/profile/Reisen", this service's own "/u/Reisen" and "/p/Reisen"). The word after a
// profile's segment is a name of the report. Linear: one bounded token per address, split once.

/** An address: a scheme, or a host before its path; one token, at most 300 characters. */
const LINK = /(?:https?:\/\/|(?<![A-Za-z0-9.-])[a-z0-9-]{1,63}\.[a-z]{2,12}\/)[^\s<>"'`)\]]{1,300}/gi;
/** Path segments a player's name follows. */
const PROFILE_SEGMENTS = new Set(["stats", "player", "players", "profile", "profiles", "user", "users", "u", "p"]);
const NAME = /^[A-Za-z0-9_]{3,16}$/;
/** A profile's segment anywhere: a text without one (most reports) holds no profile link. */
const PROFILE_HINT = /\/(?:stats|players?|profiles?|users?|u|p)\//i;

/** The spans (in the text) of the names the links of a text hold after a profile's segment. */
export function profileLinkNames(text: string): [number, number][] {
  const spans: [number, number][] = [];
  if (!PROFILE_HINT.test(text)) return spans;
  for (const m of text.matchAll(LINK)) {
    const segments = m[0].split("/");
    let at = m.index;
    for (let i = 0; i < segments.length; i++) {
      const segment = segments[i]!;
      const next = segments[i + 1]?.split(/[?#]/)[0];
      const start = at + segment.length + 1;
      at = start;
      if (next === undefined || !PROFILE_SEGMENTS.has(segment.toLowerCase()) || !NAME.test(next)) continue;
      if (/^\d+$/.test(next) || /^[0-9a-f]{32}$/i.test(next)) continue; // an id, a uuid
      spans.push([start, start + next.length]);
    }
  }
  return spans;
}

/** The rules of this step (for the hostile-input tests). */
export const linkRules: readonly { name: string; pattern: RegExp }[] = [
  { name: "profile_link", pattern: LINK },
  { name: "profile_hint", pattern: PROFILE_HINT },
];
