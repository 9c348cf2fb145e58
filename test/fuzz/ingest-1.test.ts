// The in-process ingest fuzz (ingest-run.ts), part 1 of 2: requests 0-1999 of the
// default 4 000 into a database of its own, with their replay into a fresh one.
import { fuzzIngestPart } from "./ingest-run.ts";

fuzzIngestPart(1, 2);
