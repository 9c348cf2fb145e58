// GET /v1/stats/catalogue with CATALOGUE_FILE set (contract 2.7): the file's bytes exactly as
// written, an ETag, and 304 for a client that already holds them.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { testApp, type TestApp } from "../support/app.ts";
import { smallDocument } from "./documents.ts";

// Valid JSON written the way no serializer would: tabs, CRLF, spaces before colons, fields out
// of schema order, escaped and multi-byte characters, a byte-order-free UTF-8 file ending in
// blank lines. Any re-serialisation on the way out changes these bytes.
const d = smallDocument();
const text = [
  '{\t"levelling" : { "skill" : [0,50 ,  175,375] } ,\r\n',
  `  "catalogueVersion"   :   42,\r\n`,
  `\t"categories": ${JSON.stringify(d.categories)},\n`,
  `"namespaces":[ ${d.namespaces.map((n) => JSON.stringify(n)).join(" ,\n\t\t")} ],\n`,
  `  "units" : ${JSON.stringify(d.units, null, 7)} ,\n`,
  `  "keys": [ { "label": "Blöcke \\u2014 gesamt ✓", "key": "mining.blocks.total", "kind": "count", "unit": "count", "category": "gathering", "group": "Mining", "scope": "profile" } ],\n`,
  `  "patterns": ${JSON.stringify(d.patterns)},\n`,
  `  "mirrorSections": [],  "lists": { "cuteNames": [ "Apple" , "Banana" ] }\n`,
  "}\n\n\n",
].join("");

let dir: string;
let path: string;
let fileBytes: Uint8Array<ArrayBuffer>;
let t: TestApp;
let builtInEtag: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tally-catalogue-route-"));
  path = join(dir, "catalogue override.json");
  await Bun.write(path, text);
  fileBytes = new Uint8Array(await Bun.file(path).arrayBuffer());
  t = await testApp({ settings: { catalogueFile: path } });
  const builtIn = await testApp();
  builtInEtag = (await builtIn.request("/v1/stats/catalogue")).headers.get("etag")!;
  await builtIn.close();
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

const get = (headers: Record<string, string> = {}) => t.request("/v1/stats/catalogue", { headers });

describe("the override file is served as written", () => {
  test("the file really is unusual (so the next test can tell a re-serialisation)", () => {
    const parsed: unknown = JSON.parse(text);
    expect(JSON.stringify(parsed)).not.toBe(text);
    expect(JSON.stringify(parsed, null, 2)).not.toBe(text);
    expect(text).toContain("\r\n");
    expect(fileBytes.length).toBeGreaterThan(text.length); // multi-byte characters
  });

  test("GET answers the file byte for byte, whitespace included", async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(fileBytes);
  });

  test("a second GET answers the same bytes again", async () => {
    await (await get()).arrayBuffer();
    expect(new Uint8Array(await (await get()).arrayBuffer())).toEqual(fileBytes);
  });

  test("the content type is JSON in UTF-8", async () => {
    const type = (await get()).headers.get("content-type") ?? "";
    expect(type).toMatch(/^application\/json/);
    expect(type.toLowerCase()).toContain("charset=utf-8");
  });

  test("the answer carries a strong quoted ETag, a revalidating Cache-Control and the catalogue version", async () => {
    const res = await get();
    expect(res.headers.get("etag")).toMatch(/^"[\x21\x23-\x7e]+"$/);
    expect(res.headers.get("cache-control")).toContain("must-revalidate");
    expect(res.headers.get("x-catalogue-version")).toBe("42");
  });

  test("the ETag is this file's, not the built-in catalogue's, and stays the same between requests", async () => {
    const etag = (await get()).headers.get("etag");
    expect(etag).not.toBe(builtInEtag);
    expect((await get()).headers.get("etag")).toBe(etag);
    expect(etag).toBe(t.catalogue.etag);
  });

  test("/v1/health reports the file's catalogueVersion", async () => {
    const res = await t.request("/v1/health");
    expect(res.status).toBe(200);
    expect(((await res.json()) as { catalogueVersion: number }).catalogueVersion).toBe(42);
  });
});

describe("conditional requests", () => {
  let etag: string;
  beforeAll(async () => {
    etag = (await get()).headers.get("etag")!;
  });

  test("If-None-Match equal to the ETag answers 304 with no body, still naming the ETag", async () => {
    const res = await get({ "if-none-match": etag });
    expect(res.status).toBe(304);
    expect(await res.text()).toBe("");
    expect(res.headers.get("etag")).toBe(etag);
  });

  test("a different ETag answers 200 with the whole file", async () => {
    for (const other of [builtInEtag, '"not-the-tag"', etag.slice(0, -2) + '"', etag.replaceAll('"', "")]) {
      const res = await get({ "if-none-match": other });
      expect(res.status).toBe(200);
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(fileBytes);
    }
  });

  test("the weak form W/ of the ETag also matches", async () => {
    const res = await get({ "if-none-match": `W/${etag}` });
    expect(res.status).toBe(304);
    expect(await res.text()).toBe("");
  });

  test("a list of tags matches when any one of them is the ETag", async () => {
    for (const list of [`"old-1", ${etag}`, `${etag},"old-2"`, `W/"old-1" ,  W/${etag} , "old-3"`]) {
      expect((await get({ "if-none-match": list })).status).toBe(304);
    }
    expect((await get({ "if-none-match": `"old-1", W/"old-2"` })).status).toBe(200);
  });

  test("* matches any current catalogue", async () => {
    expect((await get({ "if-none-match": "*" })).status).toBe(304);
  });
});
