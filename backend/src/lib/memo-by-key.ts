/**
 * A pure function of a string, remembered for the keys it has seen: at most `max` of them (past
 * that the memory starts empty again, which costs a recomputation, never a wrong answer).
 */
export function memoByKey<V>(compute: (key: string) => V, max: number): (key: string) => V {
  const kept = new Map<string, V>();
  return (key) => {
    let value = kept.get(key);
    if (value === undefined) {
      if (kept.size >= max) kept.clear();
      value = compute(key);
      kept.set(key, value);
    }
    return value;
  };
}
