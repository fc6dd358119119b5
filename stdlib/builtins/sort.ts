// The sort behind sorted() (docs/reference/language.md §10.9). Ordering uses only `lessThan`, like CPython's
// list.sort. For fewer than 64 elements this replays CPython's listsort step for step (one run:
// count_run, then binary insertion sort), so even inconsistent orders (NaN) give CPython's result;
// longer lists use a stable merge sort, identical to CPython whenever `<` is a strict weak order.

export type LessThan<T> = (a: T, b: T) => boolean;

/** Length of the run at the start of `a[lo..hi)`; a strictly descending run is reversed in place. */
function countRun<T>(a: T[], lo: number, hi: number, lt: LessThan<T>): number {
  if (lo + 1 === hi) return 1;
  let n = 2;
  if (lt(a[lo + 1] as T, a[lo] as T)) {
    for (let i = lo + 2; i < hi && lt(a[i] as T, a[i - 1] as T); i++) n++;
    a.splice(lo, n, ...a.slice(lo, lo + n).reverse());
  } else {
    for (let i = lo + 2; i < hi && !lt(a[i] as T, a[i - 1] as T); i++) n++;
  }
  return n;
}

/** CPython's binarysort: a[lo..start) is sorted; inserts a[start..hi) one by one. */
function binarySort<T>(a: T[], lo: number, hi: number, start: number, lt: LessThan<T>): void {
  for (let s = start === lo ? lo + 1 : start; s < hi; s++) {
    const pivot = a[s] as T;
    let l = lo;
    let r = s;
    do {
      const p = l + ((r - l) >> 1);
      if (lt(pivot, a[p] as T)) r = p;
      else l = p + 1;
    } while (l < r);
    for (let p = s; p > l; p--) a[p] = a[p - 1] as T;
    a[l] = pivot;
  }
}

function mergeSort<T>(a: T[], lt: LessThan<T>): T[] {
  if (a.length < 2) return a;
  const mid = a.length >> 1;
  const left = mergeSort(a.slice(0, mid), lt);
  const right = mergeSort(a.slice(mid), lt);
  const out: T[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length && j < right.length) {
    // Take from the right only when strictly smaller: stability.
    if (lt(right[j] as T, left[i] as T)) out.push(right[j++] as T);
    else out.push(left[i++] as T);
  }
  while (i < left.length) out.push(left[i++] as T);
  while (j < right.length) out.push(right[j++] as T);
  return out;
}

/** A sorted copy; `reverse` keeps equal elements in input order (CPython reverses around the sort). */
export function stableSort<T>(input: readonly T[], lt: LessThan<T>, reverse: boolean): T[] {
  let a = [...input];
  if (reverse) a.reverse();
  if (a.length < 64) {
    if (a.length > 1) {
      const n = countRun(a, 0, a.length, lt);
      if (n < a.length) binarySort(a, 0, a.length, n, lt);
    }
  } else {
    a = mergeSort(a, lt);
  }
  if (reverse) a.reverse();
  return a;
}
