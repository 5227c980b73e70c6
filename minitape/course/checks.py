"""The course's self-checks: `check` for the exercises, `reveal` for the predict-then-run cells.

    from minitape.course import check, reveal

    answer_1 = ...                  # the learner replaces ... with an answer
    check("01.1", answer_1)         # prints "Exercise 1: correct" or "Exercise 1: not yet ..."

    my_guess = ...                  # a prediction, written before the cell that shows the outcome
    reveal(my_guess, outcome)       # prints the guess next to what really happened

The expected answers are not written here, nor in the notebooks: each is stored as a fingerprint,
the SHA-256 of the answer rounded to a few decimals (with the exercise's name mixed in), so reading
the code does not give an answer away. `check` rounds the learner's answer the same way and
compares fingerprints. How close is close enough comes from the exercise, not from how many digits
the learner typed: an answer asked to 3 decimals may be off by one unit of the third (2.2236 for
2.223 or 2.224), and an answer with no decimals (a count) must be a whole number, exactly. An
answer that depends on the notebook's own random objects is worked out from them when checked
(`check("08.3", answer, using=(tf, critic, points))`, see COMPUTED). Worked solutions are in
`notebooks/solutions/NN_solutions.ipynb`.

An answer can be a number, a tensor or array, a list or tuple of them (compared as one flat list
of numbers; bools count as 0 and 1), `None`, a string (case and spaces aside), a set, list or
tuple of strings (compared as a set), or an exception class. `None` (a missing gradient) and NaN
(a gradient that is there, and not a number) are different answers, alone or inside a list.

A wrong answer gets a hint. Where HINTS gives a tuple, the hints are staged: the first teaches
a method; the next, more telling one shows only after another miss of the same exercise (in the
same kernel), so that a learner tries the method before being handed the numbers.

A new exercise gets a line in ANSWERS, `"NN.k": (decimals, fingerprint("NN.k", answer, decimals))`
computed once from the worked solution, and a line in HINTS (a tuple, staged, where a hint
would give the answer away); its solution notebook shows `correct`.
"""

import collections
import hashlib
import itertools

import numpy as np

__all__ = ["check", "reveal", "is_correct", "fingerprint", "hint"]

# exercise -> (decimals compared, fingerprint of the expected answer)
ANSWERS = {
    "00.1": (0, "70d302695d561488"),
    "00.2": (3, "fe0e11a7613a55a1"),
    "01.1": (3, "3dc67882ec92ff14"),
    "01.2": (3, "f1c7de76a3289045"),
    "01.3": (0, "294d0904b8815f38"),
    "02.1": (3, "1079215d89913420"),
    "02.2": (2, "39cab78e318bac8e"),
    "02.3": (2, "2e933dcbc9e48869"),
    "03.1": (0, "a352cad47cbec865"),
    "03.2": (3, "50c39223fa0be536"),
    "03.3": (3, "2da0e2adbf2fb2a8"),
    "04.1": (3, "679ec05b576484db"),
    "04.2": (0, "c76ba7f96b0ef62f"),
    "04.3": (2, "8d9c5357eb4b6eb7"),
    "04.4": (0, "961b3c7f94fa2748"),
    "05.1": (3, "4d337bf37115a8ea"),
    "05.2": (3, "713525f44dc0bb4c"),
    "05.3": (3, "d09b1416d376cff2"),
    "05.4": (3, "cb9b1eea85a93c9c"),
    "05.5": (3, "b5caedbb56a0aa9e"),
    "06.1": (3, "2da61467da457a13"),
    "06.2": (3, "529404173b9cd95b"),
    "06.3": (3, "e93e1607278ff8b7"),
    "06.4": (3, "c34f460d5e29906c"),
    "07.1": (0, "f2188fdf2918b10a"),
    "07.2": (3, "9465e982b20d47e2"),
    "07.3": (3, "computed"),
    "08.1": (3, "e1ea3596b0b2258a"),
    "08.2": (3, "56d231d0fd180290"),
    "08.3": (4, "computed"),
    "08.4": (3, "23108e775b6a7649"),
    "09.1": (8, "496696332d861e9a"),
    "09.2": (4, "13fd6f27c6622aac"),
    "09.3": (0, "5592601d746c284c"),
    "10.1": (3, "466bc3cd6c47d73d"),
    "10.2": (4, "0e70feb3e2124e99"),
    "10.3": (3, "eaa32da043c9c797"),
    "11.1": (3, "be8deee511507673"),
    "11.2": (3, "1b317af8da76bad3"),
    "11.3": (0, "e6d821c8918c588a"),
    "12.1": (3, "f68ddd254572e497"),
    "12.2": (3, "c64d6e48d50c2b60"),
    "12.3": (0, "1c18d45d7c39c6de"),
    "12.4": (0, "063d5103a6d60ee1"),
    "13.1": (3, "6803eb53b39c0ab5"),
    "13.2": (0, "f4bf40e0db39fb54"),
    "13.3": (3, "93bd97b53b8d7472"),
    "14.1": (3, "6382b7148a544016"),
    "14.2": (3, "61b20b90931f5175"),
    "14.3": (3, "c94e06f0355753e4"),
    "15.1": (3, "5deb234d705057ee"),
    "15.2": (3, "59ff3fd30c76fe8b"),
    "15.3": (3, "5f93e7ce62fd4e8c"),
    "16.1": (3, "ba504b1b44ab395f"),
    "16.2": (3, "700c75d86986d2a0"),
    "16.3": (3, "2a98e443756faf9e"),
}

# what a wrong answer is told; a tuple is staged: its next hint after each further miss
HINTS = {
    "00.1": (
        "record it: a tape watching x, y computed inside, then len(tape._entries)",
        "count the operations, not the variables: +, - and *",
    ),
    "00.2": "multiply out (x + 1)(x - 1) first, then differentiate",
    "01.1": "with b = 0, y = w·x; dloss/dw = 2(y - 5)·x",
    "01.2": "watch x (or use a Variable) and use tf.sin inside the tape",
    "01.3": "the walk counts the seed step too",
    "02.1": (
        "one step multiplies b's distance from its best value by a factor: which lr makes it 0?",
        "the factor 1 - lr·2 must be 0",
    ),
    "02.2": "w diverges when |1 - lr·curv_w| > 1",
    "02.3": "call train(0.3, 10); [w, b] are the first two columns of its last row",
    "03.1": "with watch_accessed_variables=False only what tape.watch names is watched",
    "03.2": "replace np.sum and np.abs by tf.reduce_sum and tf.abs",
    "03.3": "one argument of tf.Variable makes it frozen",
    "04.1": "two gradient() calls on one persistent tape, then del tape",
    "04.2": "re-entering a persistent tape appends to its recording",
    "04.3": "count each distinct tensor once: which tensors do the two entries hold?",
    "04.4": "try measure(36, k) for every divisor k of 36: the peak is about 36 / k + k",
    "05.1": "three tapes, each gradient() inside the next tape out",
    "05.2": "the jacobian of the inner gradient, taken by the outer tape",
    "05.3": "differentiate the scalar tf.reduce_sum(g * v) with the outer tape",
    "05.4": "call inner.gradient() inside the outer tape's block",
    "05.5": "x <- x - f'(x) / f''(x), six times, from x = 2",
    "06.1": "x + stop_gradient(x * x - x) has the value x² and the gradient of x",
    "06.2": "the grad function returns -upstream",
    "06.3": "what is computed inside stop_recording() is not recorded",
    "06.4": "wrap r + γ·v[1] in tf.stop_gradient",
    "07.1": "follow both arguments back: which networks made disc_real_y and disc_fake_x?",
    "07.2": "watch a constant logit and use tf.math.log and tf.sigmoid",
    "07.3": "one persistent tape, three gradient() calls; the third: gen_loss against "
    "discriminator.trainable_variables; add up tf.reduce_sum of each gradient",
    "08.1": "the gradient of a linear function is its weight vector, everywhere",
    "08.2": "compute the penalty inside an outer tape, then take its gradient with respect to w",
    "08.3": "take the norm over the last axis of the (64, 1, 2) result",
    "08.4": "tf.maximum(0.0, norm - 1.0) ** 2, averaged, inside an outer tape",
    "09.1": "tf.nn.l2_loss(w) is sum(w²) / 2",
    "09.2": "clip_by_global_norm returns (clipped list, global norm)",
    "09.3": "which function has an infinite slope at 0?",
    "10.1": (
        "open the tape inside the decorated function, watch x, return tape.gradient(x ** 3, x); "
        "then read slope.experimental_get_tracing_count()",
        "d(x³)/dx = 3x²; two float32 scalars share one input signature",
    ),
    "10.2": (
        "tf.function(make_train_step(make_model(seed=3), optimizer)), called 20 times on "
        "(x_train, y_train) for each optimizer; count the traces of each",
        "a first call that creates variables is traced twice: does the optimizer keep a "
        "variable per weight?",
    ),
    "10.3": (
        "in train_step: tracker = self.metrics[0]; tracker.update_state(loss); "
        'return {"loss": tracker.result()}',
        "the first epoch's mean is near 0.4; the answer is history.history['loss'] itself",
    ),
    "11.1": "Keras' L2(l) is l · Σ w² over the kernel, with no ½ (unlike tf.nn.l2_loss)",
    "11.2": "write each micro-batch's mean as its sum over its size; the batch's: the sum over 4",
    "11.3": "what does a step with a non-finite gradient do to the scale, and is it counted?",
    "12.1": "count the rounds until the value reaches 10: the tape sees one multiplication each",
    "12.2": "tf.cond, run eagerly, calls one function: which variable did the tape see read?",
    "12.3": "a Python argument is part of the signature: count the different values of the flag",
    "12.4": "a new shape, a new Python value or a new dtype traces again",
    "13.1": "watch x with the tangent v in a ForwardAccumulator, compute f inside, then acc.jvp(f)",
    "13.2": (
        "reverse: one pass per element of the output; forward: one per element of what you "
        "differentiate by. Work out the output's shape first",
        "reverse: one pass per output element (5×3); forward: one per element of W (10×3)",
    ),
    "13.3": "record y under a tape watching W4; output_gradients takes a tensor of y's shape",
    "14.1": "ForwardAccumulator(p, v) around a GradientTape; acc.jvp of the tape's gradient",
    "14.2": (
        "inner tape watching x_ex records y; u = tf.ones_like(y), watched by an outer tape that "
        "records inner.gradient(y, x_ex, output_gradients=u); then outer.gradient(g, u, ...)",
        "the second gradient is outer.gradient(g, u, output_gradients=v_ex): J v, with "
        "J = [[x1, x0], [exp(x0), 2 x1]]",
    ),
    "14.3": "outer.gradient(g, w, output_gradients=d_ex) is H d; then tf.reduce_sum(d_ex * H d)",
    "15.1": "exp's rule is g * exp(x); call inner.gradient() inside the outer tape's block",
    "15.2": "reset empties entries and watched; v is read again afterwards, x is not watched again",
    "15.3": "one backward walk, then one grads.get(s.id) per source (None where no path leads)",
    "16.1": "three tapes, all watching x, each gradient() inside every tape further out",
    "16.2": "one tape per step, one backward walk for both w and b; unbroadcast gives the shapes",
    "16.3": "relu's rule is g * (x.value > 0); train from init() exactly as section 5 does",
}


def _flat(x):
    """x as one flat float array and a mask of its missing places, or None if x is not made of
    numbers (bools count as 0 and 1; a None inside is a missing place, nan in the array, so that a
    list with a missing gradient in it still compares, and the mask keeps it apart from a NaN)."""
    if x is None:
        return np.array([np.nan]), np.array([True])
    if isinstance(x, (list, tuple)):
        parts = [_flat(item) for item in x]
        if any(p is None for p in parts):
            return None
        if not parts:
            return np.zeros(0), np.zeros(0, dtype=bool)
        return np.concatenate([v for v, _ in parts]), np.concatenate([m for _, m in parts])
    if hasattr(x, "numpy"):
        x = x.numpy()
    try:
        values = np.ravel(np.asarray(x, dtype=np.float64))
    except (TypeError, ValueError):
        return None
    return values, np.zeros(values.shape, dtype=bool)


def _with_missing(values, missing):
    """values as a list again, with None at the missing places."""
    return [None if m else v for v, m in zip(values.tolist(), missing)]


def _words(text):
    return " ".join(str(text).lower().split())


def _canonical(x, decimals=None):
    """A text that equal answers share, whatever their spelling: strings without case or extra
    spaces, a collection of strings as a set, an exception class or instance by its name, and
    everything else as numbers (bools as 0 and 1; lists, tuples, arrays and tensors as one flat
    list), rounded to `decimals` when given."""
    if x is None:
        return "None"
    if isinstance(x, str):
        return "str:" + _words(x)
    if isinstance(x, type) and issubclass(x, BaseException):
        return "error:" + x.__name__
    if isinstance(x, BaseException):
        return "error:" + type(x).__name__
    if isinstance(x, (set, frozenset, list, tuple)) and x and all(isinstance(i, str) for i in x):
        return "set:" + ",".join(sorted({_words(item) for item in x}))
    flat = _flat(x)
    if flat is None:
        return "other:" + repr(x)
    values, missing = flat
    if decimals is not None:
        values = np.round(values, decimals) + 0.0  # (+ 0.0: no -0.0)
    # a missing place is "nan" (as it always was: the fingerprints stay), a NaN value "NaN"
    return "numbers:" + ",".join(
        "nan" if m else "NaN" if np.isnan(v) else f"{v:.{decimals or 0}f}"
        for v, m in zip(values, missing)
    )


def fingerprint(name, answer, decimals):
    """The fingerprint `check` compares: SHA-256 of the exercise's name and the rounded answer."""
    text = f"{name}|{_canonical(answer, decimals)}"
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _near(values, decimals):
    """The roundings to `decimals` that lie within one unit of the last decimal of `values`,
    element by element: the rounding itself and its neighbours that are no further than one unit
    (so 2.2236 matches an expected 2.223 or 2.224, not 2.222 or 2.225)."""
    unit = 10.0**-decimals
    rounded = np.round(values, decimals)
    options = [
        [r] if np.isnan(v) else [c for c in (r, r - unit, r + unit) if abs(v - c) <= unit * 1.001]
        for v, r in zip(values, rounded)
    ]
    if len(options) > 12:  # (a big array: its rounding, or every element a unit off one way)
        return [rounded, rounded + unit, rounded - unit]
    return [np.array(c) for c in itertools.product(*options)]


def _short(x):
    """A short, stable text for an answer or an outcome: numbers with at most 4 significant
    digits, tensors by their values, exception classes by their names."""
    if x is None or isinstance(x, (bool, np.bool_, str)):
        return str(x)
    if isinstance(x, type) and issubclass(x, BaseException):
        return x.__name__
    if isinstance(x, (set, frozenset)):
        return "{" + ", ".join(sorted(map(str, x))) + "}"
    if isinstance(x, (list, tuple)):
        text = "[" + ", ".join(_short(item) for item in x) + "]"
    elif hasattr(x, "numpy") or isinstance(x, (int, float, np.number, np.ndarray)):
        values = np.asarray(x.numpy() if hasattr(x, "numpy") else x)
        if values.dtype.kind in "iub":
            text = str(values.tolist())
        elif values.ndim == 0:
            text = f"{float(values):.4g}"
        else:
            text = np.array2string(values, precision=4, separator=", ")
    else:
        text = repr(x)
    text = " ".join(text.split())
    return text if len(text) <= 60 else text[:57] + "..."


def check(name, answer, using=None):
    """Print whether `answer` is the answer of exercise `name` ("NN.k"), with a hint if not.
    An exercise whose answer depends on the notebook's own random objects gets them in `using`,
    and its answer is worked out from them now (see COMPUTED)."""
    notebook, number = name.split(".")
    label = f"Exercise {number}"
    solutions = f"solutions/{notebook}_solutions.ipynb"
    if answer is ...:
        print(
            f"{label}: not yet — replace the ... with your answer (worked solutions: {solutions})"
        )
        return
    if is_correct(name, answer, using):
        print(f"{label}: correct")
        return
    _MISSES[name] += 1
    print(f"{label}: not yet — {_short(answer)} is not it. Hint: {hint(name, _MISSES[name])}")


# exercise -> how many wrong answers `check` has seen in this kernel (for the staged hints)
_MISSES = collections.Counter()


def hint(name, misses=1):
    """The hint a learner sees after `misses` wrong answers to exercise `name`: one of a staged
    tuple per miss, the last one for good; a single hint always. A staged hint that has a more
    telling one after it says so."""
    hints = HINTS[name]
    if isinstance(hints, str):
        return hints
    stage = min(misses, len(hints)) - 1
    more = " (another miss shows a more telling hint)" if stage < len(hints) - 1 else ""
    return hints[stage] + more


def is_correct(name, answer, using=None):
    """Is `answer` the expected answer of exercise `name`? Numbers are compared to the decimals
    the exercise asks for, within one unit of the last one; an exercise with no decimals wants
    whole numbers (a count), exactly."""
    decimals, expected = ANSWERS[name]
    if name in COMPUTED:
        if using is None:
            return False
        expected = fingerprint(name, COMPUTED[name](*using), decimals)
    flat = _flat(answer)
    if answer is None or isinstance(answer, str) or flat is None or not len(flat[0]):
        return fingerprint(name, answer, decimals) == expected
    values, missing = flat
    if decimals == 0:
        whole = np.isnan(values) | (values == np.round(values))
        return bool(np.all(whole)) and fingerprint(name, answer, 0) == expected
    return any(
        fingerprint(name, _with_missing(near, missing), decimals) == expected
        for near in _near(values, decimals)
    )


def _gradient_penalty(tf, critic, points):
    """08.3: the WGAN-GP penalty of `critic` at `points`, mean((|grad| - 1)^2)."""
    with tf.GradientTape() as tape:
        tape.watch(points)
        scores = critic(points)
    grads = tape.gradient(scores, points)
    return tf.reduce_mean((tf.sqrt(tf.reduce_sum(tf.square(grads), axis=-1)) - 1.0) ** 2)


def _generator_loss_for_discriminator(tf, generator, discriminator, generator_loss, noise):
    """07.3: the sum of every entry of d(generator loss)/d(discriminator's variables)."""
    with tf.GradientTape() as tape:
        fake_output = discriminator(generator(noise, training=True), training=True)
        loss = generator_loss(fake_output)
    grads = tape.gradient(loss, discriminator.trainable_variables)
    return sum(float(tf.reduce_sum(g)) for g in grads)


# exercises whose answer is worked out at check time from the objects the notebook passes
COMPUTED = {"07.3": _generator_loss_for_discriminator, "08.3": _gradient_penalty}


def reveal(guess, outcome, decimals=3):
    """Print a prediction next to what happened, and whether they agree (spelling aside: 1 and
    True, "Up" and "up", a list and a set of the same names agree)."""
    shown = "None" if outcome is None else _short(outcome)
    if guess is ...:
        print(f"your guess: (none yet: write one in my_guess above) | what happened: {shown}")
        return
    same = _canonical(guess, decimals) == _canonical(outcome, decimals)
    verdict = "you were right" if same else "not what you guessed: read on"
    print(f"your guess: {_short(guess)} | what happened: {shown} -> {verdict}")


# -- notebook 15: the learner's own `record` and backward walk, checked piece by piece --------
def _first_problem(tests):
    """The message of the first test that fails (a test returns None when it passes)."""
    for test in tests:
        try:
            problem = test()
        except Exception as e:  # noqa: BLE001 (the learner's code may raise anything)
            problem = f"it raised {type(e).__name__}: {e}"
        if problem:
            return problem
    return None


def _report(what, problem):
    print(f"{what}: correct" if problem is None else f"{what}: not yet — {problem}")


def check_record(record, Tensor, GradientTape):
    """Try a learner's `record(name, forward, inputs, rules)` (notebook 15, section 3) on small
    recordings, and say which piece does not work yet."""
    rules = [lambda g: g, lambda g: g]

    def returns_the_value():
        with GradientTape():
            out = record("Mul", np.multiply, [Tensor(2.0), Tensor(3.0)], rules)
        if out is None:
            return "it returns None (replace the ... with your code, and return the output)"
        if not isinstance(out, Tensor) or float(out.value) != 6.0:
            return "it must return a new Tensor holding forward(*values): 2 * 3 gave " + repr(out)
        return None

    def writes_down_a_watched_input():
        x, y = Tensor(2.0), Tensor(3.0)
        with GradientTape() as tape:
            tape.watched.add(x.id)
            out = record("Mul", np.multiply, [x, y], rules)
        if len(tape.entries) != 1:
            return (
                f"the tape watches x, so x * y must be written down once: it has "
                f"{len(tape.entries)} entries"
            )
        name, inputs, entry_out, entry_rules = tape.entries[0]
        if name != "Mul" or [t.id for t in inputs] != [x.id, y.id] or entry_out is not out:
            return (
                "an entry is (name, inputs, output, rules): the op's name, its input tensors, "
                "the tensor record returned, and the rules"
            )
        if entry_rules is not rules:
            return "the entry's last item must be the rules record was given"
        return None

    def watches_the_output():
        x = Tensor(2.0)
        with GradientTape() as tape:
            tape.watched.add(x.id)
            y = record("Mul", np.multiply, [x, x], rules)
            record("Sin", np.sin, [y], rules[:1])
        if len(tape.entries) != 2:
            return (
                "the output of a recorded op must be watched too: sin(x * x) recorded "
                f"{len(tape.entries)} op(s), not 2"
            )
        return None

    def skips_constants():
        c = Tensor(5.0)
        with GradientTape() as tape:
            record("Mul", np.multiply, [c, c], rules)
        if tape.entries:
            return "an op none of whose inputs the tape watches (c * c) must not be written down"
        return None

    def asks_every_tape():
        x = Tensor(1.0)
        with GradientTape() as outer, GradientTape() as inner:
            outer.watched.add(x.id)
            record("Sin", np.sin, [x], rules[:1])
        if len(outer.entries) != 1 or inner.entries:
            return (
                "each recording tape decides for itself: with two tapes open and only the outer "
                f"one watching x, sin(x) gave {len(outer.entries)} entry(ies) on the outer and "
                f"{len(inner.entries)} on the inner"
            )
        return None

    tests = [
        returns_the_value,
        writes_down_a_watched_input,
        watches_the_output,
        skips_constants,
        asks_every_tape,
    ]
    _report("record", _first_problem(tests))


def check_backward(backward, Tensor):
    """Try a learner's `backward(entries, watched, target)` (notebook 15, section 4) on
    recordings made by hand, and say which piece does not work yet."""

    def entry(name, inputs, value, rules):
        return (name, inputs, Tensor(value), rules)

    def grad(grads, t):
        g = grads.get(t.id) if isinstance(grads, dict) else None
        return None if g is None else float(np.asarray(g.value).sum())

    def seeds_the_target():
        x = Tensor(2.0)
        grads = backward([], {x.id}, x)
        if not isinstance(grads, dict):
            return "it must return a dict {id: gradient} (replace the ... with your code)"
        if grad(grads, x) != 1.0:
            return "the walk starts from the target's own gradient, ones (d target / d target)"
        return None

    def applies_a_rule():
        x = Tensor(0.5)
        sin = entry("Sin", [x], np.sin(0.5), [lambda g: Tensor(g.value * np.cos(0.5))])
        got = grad(backward([sin], {x.id, sin[2].id}, sin[2]), x)
        if got is None or not np.isclose(got, np.cos(0.5)):
            return (
                f"for y = sin(x) at 0.5 the walk gave dy/dx = {got}, not cos(0.5): hand the "
                "gradient g of the entry's output to the entry's rule"
            )
        return None

    def adds_contributions():
        x = Tensor(3.0)
        mul = entry(
            "Mul", [x, x], 9.0, [lambda g: Tensor(g.value * 3.0), lambda g: Tensor(g.value * 3.0)]
        )
        got = grad(backward([mul], {x.id, mul[2].id}, mul[2]), x)
        if got != 6.0:
            return (
                f"for y = x * x at 3 the walk gave dy/dx = {got}, not 6: look at the entry of "
                "x * x (which ids does it hold?) and what happens to the first rule's answer"
            )
        return None

    def newest_first():
        x = Tensor(0.5)
        mul = entry(
            "Mul", [x, x], 0.25, [lambda g: Tensor(g.value * 0.5), lambda g: Tensor(g.value * 0.5)]
        )
        sin = entry("Sin", [mul[2]], np.sin(0.25), [lambda g: Tensor(g.value * np.cos(0.25))])
        got = grad(backward([mul, sin], {x.id, mul[2].id, sin[2].id}, sin[2]), x)
        if got is None or not np.isclose(got, 2 * 0.5 * np.cos(0.25)):
            return (
                f"for y = sin(x * x) at 0.5 the walk gave dy/dx = {got}, not 2x cos(x²): visit "
                "the entries newest first, so an output has its whole gradient when its entry "
                "is reached"
            )
        return None

    def skips_other_entries():
        x, z = Tensor(1.0), Tensor(2.0)
        other = entry("Sin", [z], np.sin(2.0), [lambda g: Tensor(g.value * np.cos(2.0))])
        sin = entry("Sin", [x], np.sin(1.0), [lambda g: Tensor(g.value * np.cos(1.0))])
        grads = backward([other, sin], {x.id, z.id, other[2].id, sin[2].id}, sin[2])
        if grad(grads, z) is not None:
            return "an entry whose output has no gradient does not lead to the target: skip it"
        return None

    tests = [
        seeds_the_target,
        applies_a_rule,
        adds_contributions,
        newest_first,
        skips_other_entries,
    ]
    _report("backward", _first_problem(tests))
