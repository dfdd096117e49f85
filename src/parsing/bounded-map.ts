/**
 * A Map that holds at most `cap` keys: setting a new key past it forgets the one set least recently (Map
 * order, refreshed on each set), and counts it. For state kept per process name, whose number the input
 * decides.
 */
export class BoundedMap<K, V> {
  private readonly map = new Map<K, V>();
  /** Keys forgotten to stay under the cap. */
  forgotten = 0;

  constructor(
    private readonly cap: number,
    /** Called with each key forgotten, so that state kept beside it can go too. */
    private readonly onForget: (key: K) => void = () => undefined,
  ) {}

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  set(key: K, value: V): this {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.cap) {
      const oldest = this.map.keys().next().value as K;
      this.map.delete(oldest);
      this.forgotten += 1;
      this.onForget(oldest);
    }
    return this;
  }

  delete(key: K): boolean {
    return this.map.delete(key);
  }

  get size(): number {
    return this.map.size;
  }
}
