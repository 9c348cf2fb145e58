// Export: everything the service holds about the account (settings, device sessions without token
// hashes, profiles, day rows, baselines, sessions, timeline, mirror) as one JSON document, streamed
// a page at a time. Not one snapshot: each page is its own short read, so a slow download never
// holds a transaction open (on the embedded database that would stall every other request).
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import type { Catalogue } from "../catalogue/catalogue.ts";
import { requireAccount, settingsDocument } from "../accounts/settings.ts";
import { exportPage, exportSources } from "./export.query.ts";

export const EXPORT_PAGE_ROWS = 2000;

const camel = (name: string) => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

export type ExportDeps = { db: Db; clock: Clock; catalogue: Catalogue; config: { retentionOptionsDays: readonly number[] } };

/** The export document as a stream of UTF-8 chunks. */
export async function exportStream(deps: ExportDeps, uuid: string, pageRows = EXPORT_PAGE_ROWS): Promise<ReadableStream<Uint8Array>> {
  const account = await requireAccount(deps.db, uuid);
  const head = {
    service: "tally",
    exportedAt: new Date(deps.clock.now()).toISOString(),
    account: { uuid: account.uuid, name: account.name, createdAt: account.createdAt, lastUploadAt: account.lastUploadAt, settings: settingsDocument(account, deps) },
  };
  const encoder = new TextEncoder();
  async function* chunks() {
    yield JSON.stringify(head).slice(0, -1);
    for (const [name, source] of Object.entries(exportSources)) {
      yield `,${JSON.stringify(name)}:[`;
      let after: unknown[] | null = null;
      let first = true;
      for (;;) {
        const page = await exportPage(deps.db, uuid, source, after, pageRows);
        if (page.length === 0) break;
        const text = page.map((row) => JSON.stringify(Object.fromEntries(Object.entries(row).map(([k, v]) => [camel(k), v])))).join(",");
        yield (first ? "" : ",") + text;
        first = false;
        const last = page.at(-1)!;
        after = source.order.map((c) => last[c]);
        if (page.length < pageRows) break;
      }
      yield "]";
    }
    yield "}";
  }
  const it = chunks();
  return new ReadableStream({
    async pull(controller) {
      const next = await it.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await it.return(undefined);
    },
  });
}
