// The in-process ingest fuzz (ingest-run.ts), part 2 of 2: requests 2000-3999 of the
// default 4 000 into a database of its own, with their replay into a fresh one.
import { fuzzIngestPart } from "./ingest-run.ts";

fuzzIngestPart(2, 2);
