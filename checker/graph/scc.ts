// Strongly connected components (Tarjan), iterative so that a long chain of 5,000 steps cannot
// overflow the call stack.

export interface Components {
  /** `component[i]` = the component id of node `i`. */
  readonly component: Int32Array;
  /** The members of each component, ascending. */
  readonly members: readonly (readonly number[])[];
}

/** `succ[i]` lists the successors of node `i`. */
export function stronglyConnected(succ: readonly (readonly number[])[]): Components {
  const n = succ.length;
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const component = new Int32Array(n).fill(-1);
  const members: number[][] = [];
  const stack: number[] = [];
  // Explicit DFS frames: the node and the position of its next successor.
  const frameNode: number[] = [];
  const frameNext: number[] = [];
  let counter = 0;
  for (let root = 0; root < n; root++) {
    if (index[root] !== -1) continue;
    frameNode.push(root);
    frameNext.push(0);
    index[root] = low[root] = counter++;
    stack.push(root);
    onStack[root] = 1;
    while (frameNode.length > 0) {
      const top = frameNode.length - 1;
      const v = frameNode[top] as number;
      const list = succ[v] as readonly number[];
      const k = frameNext[top] as number;
      if (k < list.length) {
        frameNext[top] = k + 1;
        const w = list[k] as number;
        if (index[w] === -1) {
          index[w] = low[w] = counter++;
          stack.push(w);
          onStack[w] = 1;
          frameNode.push(w);
          frameNext.push(0);
        } else if (onStack[w] === 1) {
          low[v] = Math.min(low[v] as number, index[w] as number);
        }
        continue;
      }
      frameNode.pop();
      frameNext.pop();
      const parent = frameNode[frameNode.length - 1];
      if (parent !== undefined) low[parent] = Math.min(low[parent] as number, low[v] as number);
      if (low[v] === index[v]) {
        const id = members.length;
        const group: number[] = [];
        for (;;) {
          const w = stack.pop() as number;
          onStack[w] = 0;
          component[w] = id;
          group.push(w);
          if (w === v) break;
        }
        group.sort((a, b) => a - b);
        members.push(group);
      }
    }
  }
  return { component, members };
}
