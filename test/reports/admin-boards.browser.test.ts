// The maintainers' page's Boards section in a real browser (admin-boards.browser.suite.ts), when
// chromium is installed.
import { browserSuite } from "../support/browser.ts";

await browserSuite(() => import("./admin-boards.browser.suite.ts"));
