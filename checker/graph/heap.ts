// A binary min-heap of non-negative integers (declaration indices): the priority queue of the
// stable topological order (docs/reference/runtime.md §2).

export class IndexHeap {
  private readonly items: number[] = [];

  get size(): number {
    return this.items.length;
  }

  push(value: number): void {
    const a = this.items;
    a.push(value);
    let i = a.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = a[parent] as number;
      if (p <= value) break;
      a[i] = p;
      i = parent;
    }
    a[i] = value;
  }

  /** The smallest value; undefined when empty. */
  pop(): number | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (top === undefined || last === undefined || a.length === 0) return top;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= a.length) break;
      const right = left + 1;
      const child = right < a.length && (a[right] as number) < (a[left] as number) ? right : left;
      if ((a[child] as number) >= last) break;
      a[i] = a[child] as number;
      i = child;
    }
    a[i] = last;
    return top;
  }
}
