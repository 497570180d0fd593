// Floors for the worker's hot paths: the same arithmetic as the product's analysis and training, written as plainly
// as typed arrays allow, with none of the product's checks, messages, splits or progress. Run in a child of run.mjs.
import { readFileSync } from 'node:fs';

/**
 * Reads a JSON table of numbers (`[[1.5,-2,...],...]`) into a Float64Array in one pass over the bytes: digits,
 * sign, point and exponent, nothing checked. Returns rows, columns and the values.
 */
export function scanFloor(path) {
  const buf = readFileSync(path);
  const values = new Float64Array(Math.ceil(buf.length / 2));
  let n = 0,
    rows = 0,
    cols = 0,
    depth = 0;
  for (let i = 0; i < buf.length;) {
    const c = buf[i];
    if (c === 91) {
      depth++;
      i++;
    } else if (c === 93) {
      if (depth === 2) {
        rows++;
        if (rows === 1) cols = n;
      }
      depth--;
      i++;
    } else if (c === 45 || (c >= 48 && c <= 57)) {
      let neg = false;
      if (c === 45) {
        neg = true;
        i++;
      }
      let v = 0;
      while (i < buf.length && buf[i] >= 48 && buf[i] <= 57) v = v * 10 + (buf[i++] - 48);
      if (buf[i] === 46) {
        i++;
        let scale = 1;
        while (i < buf.length && buf[i] >= 48 && buf[i] <= 57) {
          v = v * 10 + (buf[i++] - 48);
          scale *= 10;
        }
        v /= scale;
      }
      if (buf[i] === 101 || buf[i] === 69) {
        i++;
        let eneg = false;
        if (buf[i] === 45 || buf[i] === 43) eneg = buf[i++] === 45;
        let ex = 0;
        while (i < buf.length && buf[i] >= 48 && buf[i] <= 57) ex = ex * 10 + (buf[i++] - 48);
        v *= 10 ** (eneg ? -ex : ex);
      }
      values[n++] = neg ? -v : v;
    } else i++;
  }
  return { rows, cols, values: values.subarray(0, n) };
}

/**
 * The product's training arithmetic on a table already in memory: inputs standardised, a 3-layer network
 * (ReLU hidden, linear embedding, linear output), squared loss, mini-batches of 32, Adam; `epochs` passes over the
 * first `nTrain` rows, each followed by the loss on the next `nVal` rows.
 */
export function fitFloor({ rows, cols, values }, nIn, hidden, width, epochs, nTrain, nVal) {
  const x = new Float64Array(rows * nIn),
    y = new Float64Array(rows);
  for (let k = 0; k <= nIn; k++) {
    let s = 0,
      s2 = 0;
    for (let r = 0; r < nTrain; r++) {
      const v = values[r * cols + k];
      s += v;
      s2 += v * v;
    }
    const mean = s / nTrain,
      sd = Math.sqrt(Math.max(1e-12, s2 / nTrain - mean * mean));
    for (let r = 0; r < rows; r++) {
      const v = (values[r * cols + k] - mean) / sd;
      if (k < nIn) x[r * nIn + k] = v;
      else y[r] = v;
    }
  }
  const sizes = [hidden * nIn, hidden, width * hidden, width, width, 1];
  let seed = 7;
  const rand = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 2 - 1;
  const P = sizes.map((n) => Float64Array.from({ length: n }, () => rand() * 0.3));
  const G = sizes.map((n) => new Float64Array(n)),
    M = sizes.map((n) => new Float64Array(n)),
    V = sizes.map((n) => new Float64Array(n));
  const [w1, b1, w2, b2, w3, b3] = P,
    [g1, gb1, g2, gb2, g3, gb3] = G;
  const h = new Float64Array(hidden),
    e = new Float64Array(width),
    dE = new Float64Array(width),
    dH = new Float64Array(hidden);
  const forward = (r) => {
    for (let j = 0; j < hidden; j++) {
      let s = b1[j];
      for (let k = 0; k < nIn; k++) s += w1[j * nIn + k] * x[r * nIn + k];
      h[j] = s > 0 ? s : 0;
    }
    let out = b3[0];
    for (let j = 0; j < width; j++) {
      let s = b2[j];
      for (let k = 0; k < hidden; k++) s += w2[j * hidden + k] * h[k];
      e[j] = s;
      out += w3[j] * s;
    }
    return out;
  };
  const order = Int32Array.from({ length: nTrain }, (_, i) => i);
  let step = 0,
    val = 0;
  for (let epoch = 0; epoch < epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(((rand() + 1) / 2) * (i + 1)) % (i + 1);
      [order[i], order[j]] = [order[j], order[i]];
    }
    for (let b0 = 0; b0 < nTrain; b0 += 32) {
      const bs = Math.min(32, nTrain - b0);
      for (const g of G) g.fill(0);
      for (let bi = b0; bi < b0 + bs; bi++) {
        const r = order[bi];
        const d = (2 * (forward(r) - y[r])) / bs;
        gb3[0] += d;
        for (let j = 0; j < width; j++) {
          g3[j] += d * e[j];
          dE[j] = d * w3[j];
        }
        dH.fill(0);
        for (let j = 0; j < width; j++) {
          gb2[j] += dE[j];
          for (let k = 0; k < hidden; k++) {
            g2[j * hidden + k] += dE[j] * h[k];
            dH[k] += dE[j] * w2[j * hidden + k];
          }
        }
        for (let j = 0; j < hidden; j++) {
          if (h[j] <= 0) continue;
          gb1[j] += dH[j];
          for (let k = 0; k < nIn; k++) g1[j * nIn + k] += dH[j] * x[r * nIn + k];
        }
      }
      step++;
      const c1 = 1 - 0.9 ** step,
        c2 = 1 - 0.999 ** step;
      for (let a = 0; a < P.length; a++)
        for (let i = 0; i < P[a].length; i++) {
          M[a][i] = 0.9 * M[a][i] + 0.1 * G[a][i];
          V[a][i] = 0.999 * V[a][i] + 0.001 * G[a][i] * G[a][i];
          P[a][i] -= (0.005 * (M[a][i] / c1)) / (Math.sqrt(V[a][i] / c2) + 1e-8);
        }
    }
    val = 0;
    for (let r = nTrain; r < nTrain + nVal; r++) val += (forward(r) - y[r]) ** 2;
  }
  return { valLoss: val / nVal };
}
