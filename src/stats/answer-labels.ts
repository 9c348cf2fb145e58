// The labels of one JSON answer (issue 34, docs/decisions.md "Labels in the API's answers"): a key
// reads the same everywhere in the answer, and two keys of it never read the same. Lists read one by
// one tell their own keys apart (distinctLabels); an answer that holds several (a profile's keys and
// the account's, four periods, a headline and two period tables) is told apart once, whole.
import type { Catalogue } from "../catalogue/catalogue.ts";
import type { ItemNamer } from "../items/item-names.ts";
import { describeKey } from "./fold.ts";
import { distinctLabels } from "./labels.ts";

type Labelled = { key: string; label: string };

/**
 * A function that relabels a list of the answer whose keys are `keys`: each key by its label (the
 * catalogue's, an item by the game's name, else the key in words), with its key in brackets where
 * another key of the answer reads the same.
 */
export function answerLabels(catalogue: Catalogue, items: ItemNamer | undefined, keys: Iterable<string>) {
  const labels = new Map(
    distinctLabels([...new Set(keys)].map((key) => ({ key, label: describeKey(catalogue, key, items).label }))).map(
      (f) => [f.key, f.label],
    ),
  );
  return <T extends Labelled>(list: T[]): T[] => list.map((f) => ({ ...f, label: labels.get(f.key) ?? f.label }));
}
