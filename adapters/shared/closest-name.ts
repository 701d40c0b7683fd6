/**
 * The edit distance of two words: insertions, deletions, substitutions and swaps of two
 * neighbouring letters each count one (`prot` is one from `port`).
 */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number): number => rows[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      (rows[i] as number[])[j] = best;
    }
  }
  return at(a.length, b.length);
}

/**
 * The one of `known` that `typed` most likely misspells: the nearest by `editDistance`, when it
 * is at most a third of the longer word away (at least 1) and no other is as near; else undefined.
 */
export function closestName(typed: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  let tie = false;
  for (const name of known) {
    const distance = editDistance(typed, name);
    if (distance > Math.max(1, Math.floor(Math.max(typed.length, name.length) / 3))) continue;
    if (distance < bestDistance) {
      [best, bestDistance, tie] = [name, distance, false];
    } else if (distance === bestDistance) {
      tie = true;
    }
  }
  return tie ? undefined : best;
}
