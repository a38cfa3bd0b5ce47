/**
 * A small k-means toolkit over plain number vectors: standardisation, k-means++ seeding with a
 * seeded RNG, Lloyd's iterations, the mean silhouette. Generic: what the points mean, and how many
 * restarts and iterations to spend, is the caller's (behavioural.ts for cohorts).
 */

export interface Scaler {
  mean: number[];
  std: number[];
}

/** Per-feature mean and population standard deviation; a constant feature scales to 0. */
export function fitScaler(points: number[][]): Scaler {
  const d = points[0]?.length ?? 0;
  const mean = Array.from({ length: d }, (_, j) => points.reduce((s, p) => s + p[j]!, 0) / points.length);
  const std = mean.map((m, j) => Math.sqrt(points.reduce((s, p) => s + (p[j]! - m) ** 2, 0) / points.length));
  return { mean, std };
}

/** z-scores, each clipped to ±`clip` (none by default). */
export const standardise = (p: number[], s: Scaler, clip = Infinity) =>
  p.map((x, j) => (s.std[j]! > 1e-12 ? Math.max(-clip, Math.min(clip, (x - s.mean[j]!) / s.std[j]!)) : 0));

export const squaredDistance = (a: number[], b: number[]) => {
  let s = 0;
  for (let j = 0; j < a.length; j++) s += (a[j]! - b[j]!) ** 2;
  return s;
};

/** Index of the nearest centroid (the lowest index on a tie) and the squared distance to it. */
export function nearest(p: number[], centroids: number[][]): [number, number] {
  let best = 0;
  let bestD = Infinity;
  centroids.forEach((c, i) => {
    const d = squaredDistance(p, c);
    if (d < bestD) [best, bestD] = [i, d];
  });
  return [best, bestD];
}

/** k-means++ seeding (Arthur & Vassilvitskii 2007): each next centre drawn with probability ∝ D². */
function seedCentroids(points: number[][], k: number, random: () => number): number[][] {
  const centroids = [points[Math.floor(random() * points.length)]!];
  const d2 = points.map((p) => squaredDistance(p, centroids[0]!));
  while (centroids.length < k) {
    const total = d2.reduce((a, b) => a + b, 0);
    let pick = 0;
    if (total > 0) {
      let r = random() * total;
      while (pick < points.length - 1 && (r -= d2[pick]!) > 0) pick++;
    } else pick = centroids.length % points.length;
    centroids.push(points[pick]!);
    points.forEach((p, i) => (d2[i] = Math.min(d2[i]!, squaredDistance(p, points[pick]!))));
  }
  return centroids.map((c) => [...c]);
}

export interface KMeansOptions {
  /** k-means++ restarts (the lowest inertia wins) */
  restarts: number;
  /** Lloyd iterations per restart, at most */
  maxIterations: number;
}

export interface KMeansFit {
  centroids: number[][];
  labels: number[];
  inertia: number;
}

/** Lloyd's algorithm from k-means++ seeds, best of `restarts` by inertia. */
export function kMeans(
  points: number[][],
  k: number,
  random: () => number,
  { restarts, maxIterations }: KMeansOptions,
): KMeansFit {
  let best: KMeansFit | undefined;
  for (let run = 0; run < restarts; run++) {
    const centroids = seedCentroids(points, k, random);
    let labels = points.map(() => -1);
    for (let it = 0; it < maxIterations; it++) {
      const next = points.map((p) => nearest(p, centroids)[0]);
      if (next.every((l, i) => l === labels[i])) break;
      labels = next;
      for (let c = 0; c < k; c++) {
        const members = points.filter((_, i) => labels[i] === c);
        if (members.length > 0) centroids[c] = mean(members);
        else {
          // An empty cluster takes the point farthest from its centroid (the first on a tie).
          let far = 0;
          let farD = -1;
          points.forEach((p, i) => {
            const d = squaredDistance(p, centroids[labels[i]!]!);
            if (d > farD) [far, farD] = [i, d];
          });
          centroids[c] = [...points[far]!];
          labels[far] = c;
        }
      }
    }
    const inertia = points.reduce((s, p, i) => s + squaredDistance(p, centroids[labels[i]!]!), 0);
    if (!best || inertia < best.inertia) best = { centroids, labels, inertia };
  }
  return best!;
}

/** The mean point. */
export function mean(points: number[][]): number[] {
  return points[0]!.map((_, j) => points.reduce((s, p) => s + p[j]!, 0) / points.length);
}

/** Evenly spread indices: all of 0..n-1 when n ≤ max. */
export function spread(n: number, max: number): number[] {
  return Array.from({ length: Math.min(n, max) }, (_, i) => Math.floor((i * n) / Math.min(n, max)));
}

/** Mean silhouette (Rousseeuw 1987) of labelled points: (b − a) / max(a, b) per point, a singleton scoring 0. */
export function meanSilhouette(points: number[][], labels: number[], k: number): number {
  let total = 0;
  for (let i = 0; i < points.length; i++) {
    const sums = new Array<number>(k).fill(0);
    const counts = new Array<number>(k).fill(0);
    for (let j = 0; j < points.length; j++) {
      if (i === j) continue;
      sums[labels[j]!]! += Math.sqrt(squaredDistance(points[i]!, points[j]!));
      counts[labels[j]!]!++;
    }
    const own = labels[i]!;
    if (counts[own] === 0) continue;
    const a = sums[own]! / counts[own]!;
    let b = Infinity;
    for (let c = 0; c < k; c++) if (c !== own && counts[c]! > 0) b = Math.min(b, sums[c]! / counts[c]!);
    if (Number.isFinite(b) && Math.max(a, b) > 0) total += (b - a) / Math.max(a, b);
  }
  return total / points.length;
}
