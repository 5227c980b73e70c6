"""Cases where minitape's record differs from TensorFlow's, each with what differs and where.

An entry names the case, says why it differs, and pins minitape's own result at each place
(a path into the case's result) where it is not TF's. test_golden.py then checks everything
else in the case against TF as usual, and the pinned places against the pins: so a regression
anywhere in a listed case still fails, a change in minitape's own answer at a pinned place
fails, and a fix (minitape now gives TF's answer there) fails too, until its entry goes.

A path is a tuple of indices and keys into the result, `()` for the whole of it. A pin is
minitape's record there, written with `tensor(...)`, `raises(...)`, or a Python value (a str,
float, list of them, None) that stands for itself. Exception messages in pins are compared
word for word.

`python -m tests.tf_golden.differences` prints, for every listed case, where minitape differs
from TF now: a first draft of the pins after a change.
"""

from . import serialize


class Differs:
    """A case whose result differs from TF's at `pins` (path -> minitape's record there)."""

    def __init__(self, reason, pins):
        self.reason = reason
        self.pins = {path: _record(pin) for path, pin in pins.items()}


def tensor(dtype, shape, value):
    return {"kind": "tensor", "dtype": dtype, "shape": list(shape), "value": value}


def raises(cls, message):
    return {"kind": "error", "class": cls, "message": message}


def _record(pin):
    if isinstance(pin, dict) and "kind" in pin:
        return pin
    if type(pin) in (list, tuple):
        return {"kind": type(pin).__name__, "items": [_record(p) for p in pin]}
    return serialize.serialize(pin)


# -- not yet as TF does -----------------------------------------------------------------------
TODO = {
    # A trace serves every call its type accepts, as TF's (the tracing counts, the shapes the
    # Python code sees and the values are TF's); but minitape's graphs are of concrete shapes
    # and variables (a replay repeats each op with the shapes it had), so a call with other
    # sizes, or another variable, than a trace's graphs have runs the Python body once more
    # under that trace, without counting it: its Python side effects happen again.
    "fn_reduce_retracing_relaxes_sizes_then_rank": Differs(
        "the relaxed traces (None,) and <unknown> run their Python body again for each new "
        "shape they serve (TF: once); counts, shapes seen and values are TF's",
        {
            (3,): [
                "(2,)",
                "(None,)",
                "(None,)",
                "(None,)",
                "<unknown>",
                "<unknown>",
                "<unknown>",
                "(2,)",
            ]
        },
    ),
    "fn_reduce_retracing_keeps_python_values_apart": Differs(
        "the relaxed traces run their Python body again for each new shape they serve (TF: "
        "once); counts, shapes seen and values are TF's",
        {
            (3,): [
                ["(2,)", 1],
                ["(2,)", 2],
                ["(None,)", 2],
                ["(None,)", 1],
                ["(None,)", 1],
                ["(None,)", 2],
            ]
        },
    ),
    "fn_input_signature_none_dimension_traces_once": Differs(
        "the one trace of an input_signature with None runs its Python body again for each new "
        "shape (TF: once); the count, the shapes seen ((None,), <unknown>) and values are TF's",
        {(3,): ["(None,)", "(None,)", "(None,)", "<unknown>", "<unknown>", "<unknown>"]},
    ),
    "fn_variables_of_one_type_share_a_trace": Differs(
        "another variable of a traced type runs the Python body again (TF: no); the count and "
        "values are TF's",
        {(2,): 6},
    ),
    "function_reduce_retracing_relaxes_the_shape": Differs(
        "the relaxed trace (None,) runs its Python body again for each new length (TF: once); "
        "the count, the shapes seen and the values are TF's",
        {(2,): ["(2,)", "(None,)", "(None,)", "(None,)", "(None,)"]},
    ),
}


# -- on purpose (README, "Where minitape differs from TensorFlow") -----------------------------
# TF's behaviour is a silent wrong answer, an internal crash, or a CPU detail.
DIFFERENT = {
    "keras_mixed_generator_and_text_model_steps": Differs(
        "a float16 sum over a whole tensor (the gradient of the generator's one-value "
        "Conv2DTranspose bias, which Keras adds with a broadcast add): TF adds it up in an "
        "order of its own, one float16 rounding away from minitape's; Adam then moves that "
        "bias 1.7e-3 apart after two steps. Everything else in both models is TF's",
        {
            (2, 6): {
                "kind": "ndarray",
                "dtype": "float32",
                "shape": [1],
                "value": [0.015134572982788086],
            }
        },
    ),
    "keras_mixed_bfloat16_layer": Differs(
        "mixed_bfloat16: numpy has no bfloat16, so minitape refuses a layer that would compute "
        "in it (the policy itself can be named and read, as in keras_mixed_bfloat16_policy)",
        {
            (): raises(
                "NotImplementedError",
                "minitape has no bfloat16, so no layer can use the policy 'mixed_bfloat16': "
                "use 'mixed_float16' (or 'float32').",
            )
        },
    ),
    "keras_train_csv_logger_and_tensorboard": Differs(
        "TensorBoard: Keras writes TensorBoard's event files; minitape writes none and refuses "
        "the callback when it is made, naming History and CSVLogger (the CSV file is TF's)",
        {
            (2,): raises(
                "NotImplementedError",
                "minitape's Keras writes no TensorBoard logs: read the History fit returns "
                "(history.history), or write each epoch's logs with CSVLogger(filename).",
            )
        },
    ),
    "keras_fit_trace_count_remainder_batch": Differs(
        "fit over 10 examples in batches of 4: TF's data pipeline gives the step a batch of "
        "shape (None, 3), so one trace (two when it creates variables) serves the batches of 4 "
        "and the last one of 2. minitape's fit traces its step for (None, 3) too (the tracing "
        "count and the shapes its Python sees are TF's), but its graphs have concrete shapes, "
        "so the last, smaller batch runs the Python body once more under that trace (a print "
        "in train_step runs 3 times, not 2). The losses and the steps taken are TF's; with "
        "data that divides into whole batches the counts are TF's too (keras_fit_trace_counts)",
        {(0, 1): 3, (1, 1): 3},
    ),
    "gradient_output_gradients_python_list": Differs(
        "output_gradients=[1.0, 0.0, -2.0] for one [3] target: TF zips the three entries with "
        "the one target, uses 1.0 and silently ignores the rest; minitape raises ValueError "
        "(one entry per target)",
        {(): raises("ValueError", "output_gradients has 3 entries but there are 1 targets.")},
    ),
    "gradient_output_gradients_wrong_count": Differs(
        "one output gradient for two targets: TF weights the first target and silently seeds "
        "the other with ones; minitape raises ValueError",
        {(): raises("ValueError", "output_gradients has 1 entries but there are 2 targets.")},
    ),
    "batch_jacobian_zero_batch": Differs(
        "batch_jacobian with a batch of 0: TF crashes with ZeroDivisionError; minitape returns "
        "the empty [0, 2, 2] Jacobian",
        {(): tensor("float32", [0, 2, 2], [])},
    ),
    "custom_gradient_grad_returns_python_float": Differs(
        "grad_fn returning the Python float 5.0: TF hands that float on as the gradient; "
        "minitape converts it to a tensor of the input's kind",
        {(): tensor("float32", [], 5.0)},
    ),
    "fn_clip_by_global_norm": Differs(
        "tf.clip_by_global_norm(..., use_norm=26.0) with a Python float: TF fails inside "
        "(AttributeError: no .dtype); minitape uses the number",
        {
            (5,): (
                [tensor("float32", [2], [3 / 26, 4 / 26]), tensor("float32", [1], [12 / 26])],
                tensor("float32", [], 26.0),
            )
        },
    ),
    "nb06_naive_gradient_nan_from_89": Differs(
        "gradient of log(1 + exp(x)) at x = 88.5 and 88.72 (float32): TF's CPU kernels flush "
        "the subnormal 1/(1 + e^x) to zero and give 0.0; numpy keeps subnormals and gives 1.0 "
        "(at 89.0 both give nan)",
        {(0, 1): tensor("float32", [], 1.0), (1, 1): tensor("float32", [], 1.0)},
    ),
    "nb06_log1pexp_float64": Differs(
        "the same at x = 709 in float64: TF 0.0 (subnormals flushed), minitape 1.0",
        {(0, 1, 1): tensor("float64", [], 1.0)},
    ),
    "function_numpy_of_a_traced_tensor": Differs(
        "x.numpy() inside tf.function: TF raises (a graph tensor has no numpy value); minitape "
        "runs the function as Python on every call and gives the eager numbers",
        {(0,): tensor("float32", [], 4.0), (1,): tensor("float32", [], 25.0)},
    ),
    "autograph_to_code_of_a_lambda": Differs(
        "tf.autograph.to_code of a lambda: TF prints its conversion (`tf__lam = lambda x: "
        "ag__.with_function_scope(...)`); minitape's AutoGraph converts no lambda (it cannot "
        "tell one lambda's source from another's on the same line) and raises ConversionError",
        {(0,): "ConversionError"},
    ),
    "tape_persistent_not_a_bool": Differs(
        "GradientTape(persistent='no'): TF takes the truthy string, answers the first gradient "
        "call and fails inside on the second (InternalError: internal state of the gradient "
        "tape is invalid); minitape raises TypeError naming `persistent`",
        {(): raises("TypeError", "`persistent` must be a bool (True or False), got 'no'")},
    ),
    "sparse_slices_of_two_paths_through_one_tensor": Differs(
        "the slices of two gathers of one tensor are concatenated in the order the backward walk "
        "reaches them: minitape's walk goes newest op first, TF's eager tape breadth-first from "
        "the target, so the rows come in another order (their dense value is the same; two "
        "gathers of a variable, whose reads are added up at the end, come in TF's order)",
        {
            (1,): tensor("float32", (3, 2), [[3.0, 3.0], [3.0, 3.0], [1.0, 1.0]]),
            (2,): tensor("int32", (3,), [2, 2, 1]),
        },
    ),
}

DIFFERENCES = {**TODO, **DIFFERENT}


# -- comparing with the pins -------------------------------------------------------------------
def at(record, path):
    """The part of a record at `path` (None when the record has no such place)."""
    for key in path:
        if not isinstance(record, dict) or record.get("kind") not in ("list", "tuple", "dict"):
            return None
        items = record["items"]
        if isinstance(items, dict):
            if key not in items:
                return None
        elif not (isinstance(key, int) and -len(items) <= key < len(items)):
            return None
        record = items[key]
    return record


def _without(record, paths):
    """A copy of `record` with the parts at `paths` replaced by a marker."""
    if () in paths:
        return {"kind": "py", "type": "str", "value": "(pinned)"}
    if not isinstance(record, dict) or record.get("kind") not in ("list", "tuple", "dict"):
        return record
    items = record["items"]

    def part(key):
        below = {p[1:] for p in paths if p[0] == key}
        return _without(items[key], below) if below else items[key]

    if isinstance(items, dict):
        return {**record, "items": {key: part(key) for key in items}}
    return {**record, "items": [part(i) for i in range(len(items))]}


def _where(path):
    return "result" + "".join(f"[{k!r}]" for k in path)


def check(entry, tf_record, got, message=False, **tolerances):
    """The problems of a listed case (empty: minitape differs from TF exactly as pinned).
    Outside the pinned places, exception messages are compared when `message` is true."""
    problems = []
    for path, pin in entry.pins.items():
        tf_part, got_part = at(tf_record, path), at(got, path)
        if not serialize.compare(tf_part, pin, message=True, **tolerances):
            problems.append(f"{_where(path)}: the pin equals TF's record; drop it")
        elif not serialize.compare(tf_part, got_part, message=True, **tolerances):
            problems.append(f"{_where(path)}: minitape now gives TF's answer; drop the pin")
        else:
            problems += serialize.compare(
                pin, got_part, message=True, path=_where(path) + " (pinned)", **tolerances
            )
    paths = set(entry.pins)
    problems += serialize.compare(
        _without(tf_record, paths), _without(got, paths), message=message, **tolerances
    )
    return problems


def draft(name):
    """Where minitape differs from TF now in case `name`: its record at each such place."""
    import re

    import minitape

    from . import cases, test_golden

    case = cases.CASES[name]
    got = serialize.run_case(case.fn, minitape)
    lines = serialize.compare(
        test_golden.RECORDED[name], got, message=case.message, rtol=case.rtol, atol=case.atol
    )
    out = {}
    for line in lines:
        path = tuple(
            int(k) if k.lstrip("-").isdigit() else k.strip("'")
            for k in re.findall(r"\[([^\]]*)\]", line.split(":")[0])
        )
        out[path] = at(got, path)
    return out


if __name__ == "__main__":
    for case_name in DIFFERENCES:
        print(case_name)
        for where, record in draft(case_name).items():
            print(f"    {where}: {record}")
