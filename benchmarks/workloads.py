"""The benchmark workloads, each written once per framework.

Every implementation is a factory `make(data) -> step`: it builds the parameters from the
shared numpy `data`, and `step()` runs one iteration (forward + gradient, and the SGD
update where the workload has one) and returns the numbers the benchmark checks against
the numpy baseline: the gradients, or for W3 the trained (w, b).

minitape and TensorFlow share one implementation per workload, written against `tf`: it is
the same TF code, run once with `tf = minitape` and once with `tf = tensorflow` (and once
more under each one's `function`).
"""

import numpy as np

LR_W2 = 0.01
LR_W3 = 0.1  # the seed's SGD(0.1)


# --- shared data --------------------------------------------------------------------------
def data(name):
    rng = np.random.default_rng(0)
    if name == "W1":
        return {"x0": 0.5, "w": 0.999, "b": 0.001, "n": 1000}
    if name == "W2":
        sizes = [10, 32, 32, 1]
        params = []
        for m, n in zip(sizes[:-1], sizes[1:]):
            params += [
                (rng.standard_normal((m, n)) / np.sqrt(m)).astype(np.float32),
                (0.1 * rng.standard_normal(n)).astype(np.float32),
            ]
        return {
            "x": rng.standard_normal((64, 10)).astype(np.float32),
            "y": rng.standard_normal((64, 1)).astype(np.float32),
            "params": params,
        }
    if name == "W3":
        x = np.linspace(-1, 1, 100)
        y = 2 * x + rng.standard_normal(x.shape) * 0.33 + 10
        return {"x": x.astype(np.float32), "y": y.astype(np.float32), "steps": 20}
    if name == "W4":
        return {k: rng.standard_normal((512, 512)) / np.sqrt(512) for k in "ABC"}
    if name == "W5a":
        # positive x: libm's pow() takes a slow path for negative bases, which would time
        # the C library instead of the tapes
        return {"x": rng.uniform(0.5, 2.0, 1000)}
    if name == "W5b":
        return {
            "x": rng.standard_normal((64, 2)).astype(np.float32),
            "W1": (rng.standard_normal((2, 64)) / np.sqrt(2)).astype(np.float32),
            "b1": (0.1 * rng.standard_normal(64)).astype(np.float32),
            "W2": (rng.standard_normal((64, 1)) / 8).astype(np.float32),
            "b2": np.zeros(1, np.float32),
        }
    raise KeyError(name)


# --- numpy: the baseline, forward and backward by hand ------------------------------------
def w1_numpy(d):
    x0, w, b, n = np.float64(d["x0"]), np.float64(d["w"]), np.float64(d["b"]), d["n"]

    def step():
        ys = [x0]
        y = x0
        for _ in range(n):  # forward, keeping what the backward pass needs
            y = y * w + b
            ys.append(y)
        g, gw, gb = np.float64(1.0), np.float64(0.0), np.float64(0.0)
        for i in range(n - 1, -1, -1):
            gw = gw + g * ys[i]
            gb = gb + g
            g = g * w
        return [gw, gb]

    return step


def _mlp_grads(x, y, W1, b1, W2, b2, W3, b3):
    z1 = x @ W1 + b1
    h1 = np.tanh(z1)
    z2 = h1 @ W2 + b2
    h2 = np.tanh(z2)
    pred = h2 @ W3 + b3
    gpred = (2.0 / pred.size) * (pred - y)
    gW3, gb3 = h2.T @ gpred, gpred.sum(0)
    gz2 = (gpred @ W3.T) * (1 - h2 * h2)
    gW2, gb2 = h1.T @ gz2, gz2.sum(0)
    gz1 = (gz2 @ W2.T) * (1 - h1 * h1)
    gW1, gb1 = x.T @ gz1, gz1.sum(0)
    return [gW1, gb1, gW2, gb2, gW3, gb3]


def w2_numpy(d):
    params = [p.copy() for p in d["params"]]
    x, y = d["x"], d["y"]
    lr = np.float32(LR_W2)

    def step():
        grads = _mlp_grads(x, y, *params)
        for p, g in zip(params, grads):
            p -= lr * g
        return grads

    return step


def w3_numpy(d):
    x, y, steps = d["x"], d["y"], d["steps"]
    lr = np.float32(LR_W3)

    def step():
        w, b = np.float32(1.0), np.float32(1.0)
        for _ in range(steps):
            r = (w * x + b) - y
            gr = (2.0 / r.size) * r
            w = w - lr * np.sum(gr * x)
            b = b - lr * np.sum(gr)
        return [w, b]

    return step


def w4_numpy(d):
    A, B, C = d["A"], d["B"], d["C"]

    def step():
        T = np.tanh(A @ B)
        np.sum(T @ C)
        g = np.ones((A.shape[0], C.shape[1]))  # d sum / d (T @ C)
        gT, gC = g @ C.T, T.T @ g
        gH = gT * (1 - T * T)
        return [gH @ B.T, A.T @ gH, gC]

    return step


def w5a_numpy(d):
    x = d["x"]

    def step():
        np.sum(x**3)
        3 * x**2  # the first derivative, as the inner tape computes it
        return [6 * x]

    return step


def w5b_numpy(d):
    x, W1, b1, W2, b2 = (d[k] for k in ("x", "W1", "b1", "W2", "b2"))

    def step():
        # critic(x) = tanh(x W1 + b1) W2 + b2; its gradient w.r.t. x, summed over the batch
        h = np.tanh(x @ W1 + b1)
        h @ W2 + b2
        dh = 1 - h * h
        gz = np.broadcast_to(W2.T, h.shape) * dh  # d critic / d z, per example
        gx = gz @ W1.T
        norm = np.sqrt(np.sum(gx * gx, axis=-1))
        np.mean((norm - 1) ** 2)
        # backward through the penalty, then through gx = ((1 W2^T) * (1 - h^2)) W1^T
        gnorm = 2 * (norm - 1) / norm.size
        ggx = (gnorm / norm)[:, None] * gx
        gW1 = ggx.T @ gz
        ggz = ggx @ W1
        gW2 = np.sum(ggz * dh, axis=0)[:, None]
        gz_h = ggz * np.broadcast_to(W2.T, h.shape) * (-2 * h)  # through 1 - h^2
        gpre = gz_h * dh  # through tanh
        gW1 = gW1 + x.T @ gpre
        return [gW1, np.sum(gpre, axis=0), gW2]

    return step


NUMPY = {
    "W1": w1_numpy,
    "W2": w2_numpy,
    "W3": w3_numpy,
    "W4": w4_numpy,
    "W5a": w5a_numpy,
    "W5b": w5b_numpy,
}


# --- minitape and TensorFlow: one TF program each -----------------------------------------
def _sgd(tf, lr):
    """The framework's Keras SGD when it has one, else `assign_sub` by hand (same update)."""
    keras = getattr(tf, "keras", None)
    if keras is None:
        return None
    return keras.optimizers.SGD(lr)


def _apply(opt, lr, grads, params):
    if opt is None:
        for g, p in zip(grads, params):
            p.assign_sub(lr * g)
    else:
        opt.apply_gradients(zip(grads, params))


def w1_tf(tf, compile, d):
    w = tf.Variable(d["w"], dtype=tf.float64)
    b = tf.Variable(d["b"], dtype=tf.float64)
    x0 = tf.constant(d["x0"], dtype=tf.float64)
    n = d["n"]

    @compile
    def step():
        with tf.GradientTape() as tape:
            y = x0
            for _ in range(n):
                y = y * w + b
        return tape.gradient(y, [w, b])

    return step


def w2_tf(tf, compile, d):
    params = [tf.Variable(p) for p in d["params"]]
    W1, b1, W2, b2, W3, b3 = params
    x, y = tf.constant(d["x"]), tf.constant(d["y"])
    opt = _sgd(tf, LR_W2)

    @compile
    def step():
        with tf.GradientTape() as tape:
            h = tf.tanh(tf.matmul(x, W1) + b1)
            h = tf.tanh(tf.matmul(h, W2) + b2)
            pred = tf.matmul(h, W3) + b3
            loss = tf.reduce_mean(tf.square(pred - y))
        grads = tape.gradient(loss, params)
        _apply(opt, LR_W2, grads, params)
        return grads

    return step


def w3_tf(tf, compile, d):
    """The seed's linear regression: 20 steps of SGD(0.1) on mean squared error."""
    train_X, train_Y, steps = tf.constant(d["x"]), tf.constant(d["y"]), d["steps"]
    w = tf.Variable(1.0)
    b = tf.Variable(1.0)
    opt = _sgd(tf, LR_W3)
    keras = getattr(tf, "keras", None)
    mse = (
        keras.losses.MeanSquaredError()
        if keras is not None
        else (lambda y_true, y_pred: tf.reduce_mean(tf.square(y_true - y_pred)))
    )

    @compile
    def train():
        for _ in range(steps):
            with tf.GradientTape() as tape:
                logit = w * train_X + b
                loss = mse(train_Y, logit)
            gradients = tape.gradient(target=loss, sources=[w, b])
            _apply(opt, LR_W3, gradients, [w, b])

    def step():
        w.assign(1.0)
        b.assign(1.0)
        train()
        return [w.numpy(), b.numpy()]

    return step


def w4_tf(tf, compile, d):
    A, B, C = (tf.Variable(d[k]) for k in "ABC")

    @compile
    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.matmul(tf.tanh(tf.matmul(A, B)), C))
        return tape.gradient(loss, [A, B, C])

    return step


def w5a_tf(tf, compile, d):
    # A variable, not a constant: a compiled step could otherwise fold the whole computation
    # into a constant at trace time and measure nothing.
    x = tf.Variable(d["x"])

    @compile
    def step():
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = tf.reduce_sum(x**3)
            dy_dx = inner.gradient(y, x)
        return [outer.gradient(dy_dx, x)]

    return step


def w5b_tf(tf, compile, d):
    W1, b1, W2, b2 = (tf.Variable(d[k]) for k in ("W1", "b1", "W2", "b2"))
    interpolated = tf.constant(d["x"])

    def critic(x):
        return tf.matmul(tf.tanh(tf.matmul(x, W1) + b1), W2) + b2

    @compile
    def step():
        with tf.GradientTape() as outer:
            with tf.GradientTape() as tape:
                tape.watch(interpolated)
                predictions = critic(interpolated)
            grads = tape.gradient(predictions, interpolated)
            grad_norm = tf.sqrt(tf.reduce_sum(tf.square(grads), axis=-1))
            gp_loss = tf.reduce_mean((grad_norm - 1.0) ** 2)
        return outer.gradient(gp_loss, [W1, b1, W2])

    return step


TF_STYLE = {"W1": w1_tf, "W2": w2_tf, "W3": w3_tf, "W4": w4_tf, "W5a": w5a_tf, "W5b": w5b_tf}


# --- HIPS autograd ------------------------------------------------------------------------
def autograd_impls():
    import autograd
    import autograd.numpy as anp

    def w1(d):
        x0, n = d["x0"], d["n"]

        def f(w, b):
            y = x0
            for _ in range(n):
                y = y * w + b
            return y

        g = autograd.grad(f, argnum=(0, 1))
        w, b = np.float64(d["w"]), np.float64(d["b"])
        return lambda: list(g(w, b))

    def w2(d):
        params = [p.copy() for p in d["params"]]
        x, y = d["x"], d["y"]

        def loss(ps):
            W1, b1, W2, b2, W3, b3 = ps
            h = anp.tanh(anp.dot(x, W1) + b1)
            h = anp.tanh(anp.dot(h, W2) + b2)
            return anp.mean(anp.square(anp.dot(h, W3) + b3 - y))

        g = autograd.grad(loss)

        def step():
            grads = g(params)
            params[:] = [p - np.float32(LR_W2) * gp for p, gp in zip(params, grads)]
            return grads

        return step

    def w3(d):
        x, y, steps = d["x"], d["y"], d["steps"]
        g = autograd.grad(lambda w, b: anp.mean(anp.square(y - (w * x + b))), argnum=(0, 1))
        lr = np.float32(LR_W3)

        def step():
            w, b = np.float32(1.0), np.float32(1.0)
            for _ in range(steps):
                gw, gb = g(w, b)
                w, b = w - lr * gw, b - lr * gb
            return [w, b]

        return step

    def w4(d):
        g = autograd.grad(
            lambda A, B, C: anp.sum(anp.dot(anp.tanh(anp.dot(A, B)), C)), argnum=(0, 1, 2)
        )
        return lambda: list(g(d["A"], d["B"], d["C"]))

    def w5a(d):
        g2 = autograd.grad(lambda x: anp.sum(autograd.grad(lambda x: anp.sum(x**3))(x)))
        return lambda: [g2(d["x"])]

    def w5b(d):
        x, b2 = d["x"], d["b2"]

        def gp(W1, b1, W2):
            critic = lambda x: anp.dot(anp.tanh(anp.dot(x, W1) + b1), W2) + b2  # noqa: E731
            grads = autograd.elementwise_grad(lambda x: critic(x))(x)
            norm = anp.sqrt(anp.sum(anp.square(grads), axis=-1))
            return anp.mean((norm - 1.0) ** 2)

        g = autograd.grad(gp, argnum=(0, 1, 2))
        return lambda: list(g(d["W1"], d["b1"], d["W2"]))

    return {"W1": w1, "W2": w2, "W3": w3, "W4": w4, "W5a": w5a, "W5b": w5b}


# --- PyTorch (CPU) ------------------------------------------------------------------------
def torch_impls():
    import torch

    def t(a, grad=True):
        return torch.tensor(np.asarray(a), requires_grad=grad)

    def w1(d):
        w, b = t(d["w"]), t(d["b"])
        x0, n = t(d["x0"], False), d["n"]

        def step():
            y = x0
            for _ in range(n):
                y = y * w + b
            return list(torch.autograd.grad(y, [w, b]))

        return step

    def w2(d):
        params = [t(p) for p in d["params"]]
        W1, b1, W2, b2, W3, b3 = params
        x, y = t(d["x"], False), t(d["y"], False)
        opt = torch.optim.SGD(params, lr=LR_W2)

        def step():
            opt.zero_grad()
            h = torch.tanh(x @ W1 + b1)
            h = torch.tanh(h @ W2 + b2)
            loss = torch.mean(torch.square(h @ W3 + b3 - y))
            loss.backward()
            grads = [p.grad.clone() for p in params]  # returned for the check
            opt.step()
            return grads

        return step

    def w3(d):
        x, y, steps = t(d["x"], False), t(d["y"], False), d["steps"]
        w, b = t(np.float32(1.0)), t(np.float32(1.0))
        opt = torch.optim.SGD([w, b], lr=LR_W3)
        mse = torch.nn.MSELoss()

        def step():
            with torch.no_grad():
                w.fill_(1.0)
                b.fill_(1.0)
            for _ in range(steps):
                opt.zero_grad()
                loss = mse(w * x + b, y)
                loss.backward()
                opt.step()
            return [w.detach().clone(), b.detach().clone()]

        return step

    def w4(d):
        A, B, C = (t(d[k]) for k in "ABC")
        return lambda: list(torch.autograd.grad(torch.sum(torch.tanh(A @ B) @ C), [A, B, C]))

    def w5a(d):
        x = t(d["x"])

        def step():
            y = torch.sum(x**3)
            (g,) = torch.autograd.grad(y, x, create_graph=True)
            return list(torch.autograd.grad(g, x, grad_outputs=torch.ones_like(g)))

        return step

    def w5b(d):
        W1, b1, W2, b2 = (t(d[k]) for k in ("W1", "b1", "W2", "b2"))
        x = t(d["x"])

        def step():
            out = torch.tanh(x @ W1 + b1) @ W2 + b2
            (g,) = torch.autograd.grad(out, x, grad_outputs=torch.ones_like(out), create_graph=True)
            gp = torch.mean((torch.sqrt(torch.sum(g * g, dim=-1)) - 1.0) ** 2)
            return list(torch.autograd.grad(gp, [W1, b1, W2]))

        return step

    return {"W1": w1, "W2": w2, "W3": w3, "W4": w4, "W5a": w5a, "W5b": w5b}
