// Names, not ids, in a real browser (test/web/names.browser.suite.ts), when chromium is installed.
import { browserSuite } from "../support/browser.ts";

await browserSuite(() => import("./names.browser.suite.ts"));
