// Statistics pages in a real browser (test/web/stats.browser.suite.ts), when chromium is installed.
import { browserSuite } from "../support/browser.ts";

await browserSuite(() => import("./stats.browser.suite.ts"));
