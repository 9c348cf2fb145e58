// The maintainers' page's Boards section (issue 35), behind the same admin session as the rest of
// the page (admin-gate.ts):
//     GET  /admin/boards                      held figures, excluded players, the exclude form
//     POST /admin/boards/exclude (form: name) takes the player off every board at once
//     POST /admin/boards/include (form: name) lets them rank again from their next upload
// Each form is checked before its body is read (the session's cookie), then for its CSRF field
// and same origin, as every admin form. A name no account holds is refused 404 `unknown_player`, a
// malformed one 400 `invalid_body`: the page again, with the name typed and the code on its alert.
// Each action writes one log line naming no player (a log is storage too): who was excluded, and
// when, is the exclusions' own table, listed on this page.
import { Elysia } from "elysia";
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import type { Log } from "../log.ts";
import type { Catalogue } from "../catalogue/catalogue.ts";
import type { Boards } from "../boards/definitions.ts";
import { excludeByName, excludedPlayers, heldFigures, includeByName, OPERATOR_LISTED } from "../boards/operator.ts";
import { readForm } from "../http/body.ts";
import { formatValue } from "../web/format.ts";
import { PAGE_NAME } from "../web/page-cookie.ts";
import type { AdminGate } from "./admin-gate.ts";
import { BoardsAdminPage, type BoardsAdminView } from "./admin-boards-view.tsx";

export type BoardsAdminDeps = { db: Db; clock: Clock; config: Config; log: Log; catalogue: Catalogue; boards: Boards };

/** What a done action says, from a closed list (nothing a link could make the page say). */
const DONE: Record<string, (removed: number) => string> = {
  excluded: (n) =>
    `Excluded from every board: ${n} score${n === 1 ? "" : "s"} removed. Their uploads rank nothing until you let them rank again.`,
  already: () => "That player was already excluded.",
  included: () => "They may rank again from their next upload; their held figures are forgotten.",
  neither: () => "That player was neither excluded nor held: nothing changed.",
};

export function boardsAdminRoutes(deps: BoardsAdminDeps, gate: AdminGate) {
  const hidden = { detail: { hide: true } } as const;
  const format = (unit: string, value: bigint) =>
    value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER)
      ? formatValue(deps.catalogue, unit, Number(value))
      : value.toString();
  const render = async (
    request: Request,
    session: string,
    extra: Pick<BoardsAdminView, "done" | "refused"> = {},
    status = 200,
  ) => {
    const [held, excluded] = await Promise.all([heldFigures(deps), excludedPlayers(deps.db)]);
    return gate.page(
      request,
      BoardsAdminPage({ held, excluded, listed: OPERATOR_LISTED, csrf: gate.csrfFor(session), format, ...extra }),
      status,
    );
  };
  const back = (query: string) =>
    new Response(null, { status: 303, headers: { location: `/admin/boards?${query}`, "cache-control": "no-store" } });
  /** The form's name, or the page again saying why not. */
  const nameOf = async (request: Request, session: string, body: unknown) => {
    const raw = (body as Record<string, unknown>).name;
    const name = typeof raw === "string" ? raw.trim() : "";
    if (PAGE_NAME.test(name)) return { name };
    return {
      refused: await render(
        request,
        session,
        {
          refused: {
            code: "invalid_body",
            message: "A player's name is 1 to 16 letters, digits and underscores.",
            name: name.slice(0, 16),
          },
        },
        400,
      ),
    };
  };
  const unknown = (request: Request, session: string, name: string) =>
    render(
      request,
      session,
      { refused: { code: "unknown_player", message: `No account on this service is named ${name}.`, name } },
      404,
    );
  /** The request's own log (its lines carry the request id), else the service's. */
  const logOf = (ctx: unknown) => (ctx as { log?: Log }).log ?? deps.log;
  const form = { ...hidden, transform: [gate.signedInForm, readForm()] };

  return new Elysia({ name: "tally.reports.admin-boards" })
    .get(
      "/admin/boards",
      async ({ request }) => {
        const s = await gate.session(request);
        if (!s) return gate.toLogin();
        const url = new URL(request.url);
        const say = DONE[url.searchParams.get("done") ?? ""];
        const removed = Number(url.searchParams.get("removed"));
        return render(request, s, {
          done: say?.(Number.isSafeInteger(removed) && removed >= 0 ? removed : 0),
        });
      },
      hidden,
    )
    .post(
      "/admin/boards/exclude",
      async (ctx) => {
        const { request, body } = ctx;
        const s = await gate.checkForm(request, body);
        const asked = await nameOf(request, s, body);
        if (asked.refused) return asked.refused;
        const done = await excludeByName(deps, asked.name);
        if (!done) return unknown(request, s, asked.name);
        logOf(ctx).info("boards: the operator excluded a player from every board", {
          via: "admin page",
          already: done.already,
          scoresRemoved: done.removed,
        });
        return back(done.already ? "done=already" : `done=excluded&removed=${done.removed}`);
      },
      form,
    )
    .post(
      "/admin/boards/include",
      async (ctx) => {
        const { request, body } = ctx;
        const s = await gate.checkForm(request, body);
        const asked = await nameOf(request, s, body);
        if (asked.refused) return asked.refused;
        const done = await includeByName(deps, asked.name);
        if (!done) return unknown(request, s, asked.name);
        logOf(ctx).info("boards: the operator let a player rank again", { via: "admin page", was: done.was });
        return back(done.was ? "done=included" : "done=neither");
      },
      form,
    );
}
