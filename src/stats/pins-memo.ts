// The ingest's in-process memo of key pins, bounded: a pin never changes once written, so any pin
// may be forgotten and read again from the database; without a bound the map grew with every key
// any upload ever named (keys such as loot.item.<ITEM_ID> are open-ended).

/** Most pins one instance keeps in memory (a pin is a few short strings: about 10 MB at this size). */
export const PINS_KEPT = 50_000;

/** A Map that forgets its least recently set entries beyond `max`. */
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(readonly max: number) {
    super();
  }

  override set(key: K, value: V): this {
    if (this.has(key)) this.delete(key);
    super.set(key, value);
    while (this.size > this.max) this.delete(this.keys().next().value as K);
    return this;
  }
}
