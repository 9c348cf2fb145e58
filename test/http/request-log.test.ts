// The request log tells a self-hoster once when a proxy sits in front without TRUST_PROXY: every
// client would count as the proxy's one address.
import { describe, expect, test } from "bun:test";
import { testApp } from "../support/app.ts";

const proxyWarnings = (lines: Record<string, unknown>[]) =>
  lines.filter((l) => l.level === "warn" && String(l.msg).includes("TRUST_PROXY is off"));

describe("a proxy without TRUST_PROXY", () => {
  test("is named in one warning, however many forwarded requests come", async () => {
    const t = await testApp();
    try {
      expect((await t.request("/v1/health")).status).toBe(200);
      expect(proxyWarnings(t.log.lines)).toHaveLength(0);
      for (let i = 0; i < 3; i++)
        expect((await t.request("/v1/health", { headers: { "x-forwarded-for": "203.0.113.9" } })).status).toBe(200);
      expect(proxyWarnings(t.log.lines)).toHaveLength(1);
    } finally {
      await t.close();
    }
  });

  test("is not warned of when TRUST_PROXY is on", async () => {
    const t = await testApp({ settings: { trustProxy: true } });
    try {
      await t.request("/v1/health", { headers: { "x-forwarded-for": "203.0.113.9" } });
      expect(proxyWarnings(t.log.lines)).toHaveLength(0);
    } finally {
      await t.close();
    }
  });
});
