// Trims a recorded /v2/skyblock/profiles answer to what the tests need, values verbatim:
//   bun test/support/recorded/trim.ts <recorded.json> <player uuid> <out.json>
// A profile keeps profile_id, cute_name, selected, game_mode, created_at and banking.balance; the
// looked-up player's member entry keeps player_id, profile, leveling.experience, currencies and
// fairy_soul; every other member keeps player_id and only the two parts of its `profile` that say
// whether it is still a member (deletion_notice, coop_invitation). A bare `profiles` array (as some
// projects record it) is put in the documented { success, profiles } envelope.
export {};

const [source, uuid, out] = process.argv.slice(2);
if (!source || !uuid || !out) throw new Error("usage: trim.ts <recorded.json> <player uuid> <out.json>");

type Obj = Record<string, unknown>;
const only = (o: unknown, keys: string[]): Obj | undefined => {
  if (!o || typeof o !== "object") return undefined;
  const kept = Object.entries(o as Obj).filter(([k]) => keys.includes(k));
  return kept.length ? Object.fromEntries(kept) : undefined;
};
const defined = (o: Obj) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

const recorded = JSON.parse(await Bun.file(source).text()) as Obj | Obj[];
const body = Array.isArray(recorded) ? { success: true, profiles: recorded } : recorded;
const profiles = (body.profiles as Obj[] | null)?.map((p) => {
  const members = Object.fromEntries(
    Object.entries(p.members as Record<string, Obj>).map(([id, m]) => [
      id,
      id === uuid
        ? defined({
            player_id: m.player_id,
            profile: m.profile,
            leveling: only(m.leveling, ["experience"]),
            currencies: m.currencies,
            fairy_soul: m.fairy_soul,
          })
        : defined({ player_id: m.player_id, profile: only(m.profile, ["deletion_notice", "coop_invitation"]) }),
    ]),
  );
  return defined({
    profile_id: p.profile_id,
    members,
    banking: only(p.banking, ["balance"]),
    game_mode: p.game_mode,
    created_at: p.created_at,
    cute_name: p.cute_name,
    selected: p.selected,
  });
});
await Bun.write(out, JSON.stringify({ success: body.success, profiles }, null, 2) + "\n");
