# The NumPy reference for the fit: the same network, batches, optimiser and epochs as the product's training,
# vectorised per batch. Usage: floor.py FILE.json N_IN HIDDEN WIDTH EPOCHS N_TRAIN N_VAL; prints JSON timings.
import json, sys, time
import numpy as np

path, n_in, hidden, width, epochs, n_train, n_val = sys.argv[1], *map(int, sys.argv[2:8])
t0 = time.perf_counter()
table = np.array(json.load(open(path)), dtype=np.float64)
parsed = time.perf_counter()
x, y = table[:, :n_in], table[:, n_in]
mean, sd = x[:n_train].mean(0), x[:n_train].std(0) + 1e-12
x = (x - mean) / sd
y = (y - y[:n_train].mean()) / (y[:n_train].std() + 1e-12)
rng = np.random.default_rng(7)
P = [rng.uniform(-0.3, 0.3, s) for s in [(hidden, n_in), (hidden,), (width, hidden), (width,), (width,), (1,)]]
M = [np.zeros_like(p) for p in P]
V = [np.zeros_like(p) for p in P]
step = 0
for epoch in range(epochs):
    order = rng.permutation(n_train)
    for b0 in range(0, n_train, 32):
        idx = order[b0 : b0 + 32]
        xb, yb = x[idx], y[idx]
        w1, b1, w2, b2, w3, b3 = P
        z = xb @ w1.T + b1
        h = np.maximum(z, 0)
        e = h @ w2.T + b2
        out = e @ w3 + b3[0]
        d = 2 * (out - yb) / len(idx)
        g3, gb3 = e.T @ d, np.array([d.sum()])
        dE = np.outer(d, w3)
        g2, gb2 = dE.T @ h, dE.sum(0)
        dH = (dE @ w2) * (z > 0)
        g1, gb1 = dH.T @ xb, dH.sum(0)
        step += 1
        c1, c2 = 1 - 0.9**step, 1 - 0.999**step
        for p, g, m, v in zip(P, [g1, gb1, g2, gb2, g3, gb3], M, V):
            m *= 0.9
            m += 0.1 * g
            v *= 0.999
            v += 0.001 * g * g
            p -= 0.005 * (m / c1) / (np.sqrt(v / c2) + 1e-8)
    w1, b1, w2, b2, w3, b3 = P
    xv = x[n_train : n_train + n_val]
    val = float((((np.maximum(xv @ w1.T + b1, 0) @ w2.T + b2) @ w3 + b3[0] - y[n_train : n_train + n_val]) ** 2).mean())
done = time.perf_counter()
print(json.dumps({"ms": (done - t0) * 1000, "parseMs": (parsed - t0) * 1000, "trainMs": (done - parsed) * 1000, "valLoss": val}))
