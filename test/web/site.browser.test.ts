// The mod's own pages in a real browser (test/web/site.browser.suite.ts), when chromium is installed.
import { browserSuite } from "../support/browser.ts";

await browserSuite(() => import("./site.browser.suite.ts"));
