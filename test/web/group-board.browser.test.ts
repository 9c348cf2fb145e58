// A group's board page in a real browser (test/web/group-board.browser.suite.ts), when chromium is installed.
import { browserSuite } from "../support/browser.ts";

await browserSuite(() => import("./group-board.browser.suite.ts"));
