// GET /v1/stats/catalogue: the loaded catalogue, byte for byte, with an ETag (304 on a match).
import { Elysia } from "elysia";
import type { Catalogue } from "./catalogue.ts";
import { etagMatches } from "../http/etag.ts";
import { CATALOGUE_ANSWERS } from "./catalogue.schema.ts";
import { answers } from "../http/route-detail.ts";

export function catalogueRoutes(catalogue: Catalogue) {
  const headers = {
    etag: catalogue.etag,
    "cache-control": "public, max-age=300, must-revalidate",
    "x-catalogue-version": String(catalogue.version),
  };
  return new Elysia({ name: "tally.catalogue" }).get(
    "/v1/stats/catalogue",
    ({ request }) => {
      if (etagMatches(request.headers.get("if-none-match"), catalogue.etag))
        return new Response(null, { status: 304, headers });
      return new Response(catalogue.bytes, {
        headers: { ...headers, "content-type": "application/json; charset=utf-8" },
      });
    },
    {
      detail: {
        summary: "The catalogue document (contract 2.7), served byte for byte",
        tags: ["catalogue"],
        ...answers(CATALOGUE_ANSWERS),
      },
    },
  );
}
