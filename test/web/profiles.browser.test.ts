// Public profile pages in a real browser (test/web/profiles.browser.suite.ts), when chromium is installed.
import { browserSuite } from "../support/browser.ts";

await browserSuite(() => import("./profiles.browser.suite.ts"));
