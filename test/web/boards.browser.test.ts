// A board's page in a real browser (test/web/boards.browser.suite.ts), when chromium is installed.
import { browserSuite } from "../support/browser.ts";

await browserSuite(() => import("./boards.browser.suite.ts"));
