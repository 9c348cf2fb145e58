// Erasure's part for recaps (stats/erase.ts calls it in its transaction): a recap is made of the
// statistics, so erasing them erases it, counted like the statistics' own tables.
import type { Db } from "../db/database.ts";
import { deleteRecapRows } from "./recaps.query.ts";

export const deleteRecaps = (tx: Db, uuid: string) => deleteRecapRows(tx, uuid);
