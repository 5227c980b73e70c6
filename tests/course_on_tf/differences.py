"""The cells of the course whose printed output under TensorFlow is not compared, each with why.

Keyed by notebook and cell id (every cell has a stable id), so that the notebooks themselves carry
nothing for this test. `run.py` still runs every listed cell, and fails when one of them prints
the committed output again (its entry is then no longer needed and must go) or when a listed cell
id is no longer in its notebook.

SKIP: minitape-only cells. They read what TF does not have: a tape's private recording
(`tape._entries`, `tape._watched`), `minitape.viz` (which draws that recording),
`minitape.explain`, a `tf.function`'s Python replay, minitape's own modules; or they use a name
that such a cell, which stops there under TF, was to define.

DIFFERS: cells where TF prints something else, each with what differs and why. Keep it short:
a difference that minitape should not have is a bug to fix in minitape (its entry then goes, as
the run demands); one kept on purpose says so.
"""

ENTRIES = "prints from tape._entries, minitape's recording (TF's tape has no Python view of it)"
VIZ = "draws with minitape.viz, which reads minitape's recording (tape._entries)"


def after(cell, name):
    """A cell that needs `name` from `cell`, which stops at a minitape-only line under TF."""
    return f"needs {name} from cell {cell}, which stops at tape._entries under TF"


EXPLAIN = "asks minitape.explain why a gradient is None: it reads minitape's recording"

# TF's logger writes to stdout in an interactive shell (a notebook); minitape's to stderr.
LOGGED = (
    "a warning of the tape's: TF logs it as WARNING:tensorflow:... to stdout (TF's logger writes "
    "to stdout in an interactive shell), minitape as WARNING:minitape:... to stderr"
)

# tape.jacobian runs TF's pfor, a tf.function that retraces for each new shape.
PFOR = (
    "TF warns that pfor's function (behind tape.jacobian) retraced (WARNING:tensorflow:5 out of "
    "the last 5 calls to <function pfor.<locals>.f ...> triggered tf.function retracing); "
    "minitape traces nothing"
)

SKIP = {
    "notebooks/00_index.ipynb": {
        "nb00-03": ENTRIES,
        "nb00-05": VIZ,
        "nb00-09": ENTRIES,
    },
    "notebooks/01_first_tape.ipynb": {
        "nb01-13": ENTRIES,
        "nb01-23": ENTRIES,
        "nb01-25": VIZ,
        "nb01-27": VIZ,
        "nb01-29": after("nb01-27", "walk (viz.backward_steps)"),
        "nb01-33": VIZ,
        "nb01-34": after("nb01-33", "walk2 (viz.backward_steps)"),
    },
    "notebooks/02_linear_regression.ipynb": {
        "nb02-08": ENTRIES,
        "nb02-10": after("nb02-08", "grads"),
        "nb02-12": after("nb02-08", "grads"),
    },
    "notebooks/03_what_gets_watched.ipynb": {
        "nb03-03": ENTRIES,
        "nb03-07": ENTRIES,
        "nb03-13": ENTRIES,
        "nb03-17": ENTRIES,
        "nb03-19": VIZ,
        "nb03-28": VIZ,
        "nb03-34": VIZ,
        "nb03-38a": EXPLAIN,
        "nb03-38g": EXPLAIN,
        "nb03-38i": EXPLAIN,
    },
    "notebooks/12_control_flow.ipynb": {
        "nb03-cf-01": ENTRIES,
        "nb03-cf-04": ENTRIES,
        "nb03-cf-06": ENTRIES,
        "nb03-cf-08": ENTRIES,
        "nb03-cf-12": ENTRIES,
        "nb03-cf-15": ENTRIES,
    },
    "notebooks/04_persistent_tapes.ipynb": {
        "nb04-05": ENTRIES,
        "nb04-21": ENTRIES,
        "nb04-22": ENTRIES,
        "nb04-24": ENTRIES,
        "nb04-26": ENTRIES,
        "nb04-27": after("nb04-26", "reused"),
        "nb04-rg-03": ENTRIES,
        "nb04-rg-06": ENTRIES,
        "nb04-rg-08": ENTRIES,
        "nb04-rg-10": ENTRIES,
    },
    "notebooks/05_higher_order.ipynb": {
        "05-higher-or-007": ENTRIES,
        "05-higher-or-009": VIZ,
        "05-higher-or-019": "prints which tensors each tape watches from tape._watched, "
        "minitape's own set (TF's tape has no Python view of it)",
    },
    "notebooks/06_controlling_the_recording.ipynb": {
        "06-controlli-003": ENTRIES,
        "06-controlli-005": ENTRIES,
        "06-controlli-007": ENTRIES,
        "06-controlli-009": ENTRIES,
        "06-controlli-011": ENTRIES,
        "06-controlli-013": ENTRIES,
        "06-controlli-017": ENTRIES,
        "06-controlli-022": ENTRIES,
        "06-controlli-007b": EXPLAIN,
        "06-controlli-019b": EXPLAIN,
    },
    "notebooks/07_gans.ipynb": {
        "07-gans-005": ENTRIES,
        "07-gans-035": ENTRIES,
        "07-gans-041": after("07-gans-035", "source (the snippet, its gradient calls dedented)"),
    },
    "notebooks/08_wgan_gp.ipynb": {
        "08-wgan-gp-011b": EXPLAIN,
        "08-wgan-gp-012b": EXPLAIN,
    },
    "notebooks/10_tf_function_and_fit.ipynb": {
        "09-custom-tr-026c": "prints concrete_function.python_source, minitape's Python replay "
        "of a traced graph (TF compiles its graphs, and has no such attribute)",
        "09-custom-tr-039": ENTRIES,
    },
    "notebooks/14_hessians_and_double_backward.ipynb": {
        "10-forward-mo-030c": ENTRIES,
        "10-forward-mo-032": VIZ,
    },
    "notebooks/15_build_your_own_tape.ipynb": {
        "11-build-you-007": "compares the home-made tape stack with minitape's "
        "(minitape.context.STATE), which TF's tapes do not use",
        "11-build-you-013": ENTRIES,
        "11-build-you-037": ENTRIES,
    },
    "notebooks/16_test_and_extend_your_tape.ipynb": {
        "16-test-ext-004": "measures minitape's own source file (inspect.getsource(tf.tape)); "
        "TF has no tf.tape module",
    },
    "notebooks/solutions/00_solutions.ipynb": {
        "nb00-03": ENTRIES,
    },
    "notebooks/solutions/01_solutions.ipynb": {
        "nb01-07": VIZ,
    },
    "notebooks/solutions/04_solutions.ipynb": {
        "nb04-05": ENTRIES,
        "nb04-07": ENTRIES,
    },
    "notebooks/solutions/06_solutions.ipynb": {
        "06-solutions-009": ENTRIES,
        "06-solutions-010": after("06-solutions-009", "answer_3"),
    },
    "notebooks/solutions/12_solutions.ipynb": {
        "nb10-s-01a": ENTRIES,
    },
}

DIFFERS = {
    # AutoGraph's converted code: the same shape, TF's with more around it.
    ("notebooks/12_control_flow.ipynb", "nb10-ag-01"): (
        "tf.autograph.to_code: TF's converted code also wraps the body in ag__.FunctionScope, "
        "every load in ag__.ld, every call in ag__.converted_call, and the return in "
        "do_return/retval_; minitape's has the same functions and the same ag__.if_stmt call "
        "without them"
    ),
    # Names of classes: TF's tensors and variables are other Python classes.
    ("notebooks/03_what_gets_watched.ipynb", "nb03-26b"): (
        "prints the module and class of a tensor: TF's is "
        "tensorflow.python.framework.ops.EagerTensor, minitape's minitape.tensor.Tensor"
    ),
    ("notebooks/03_what_gets_watched.ipynb", "nb03-32"): (
        "prints type(v).__name__: TF's EagerTensor and ResourceVariable, minitape's Tensor and "
        "Variable"
    ),
    # Messages and warnings.
    ("notebooks/03_what_gets_watched.ipynb", "nb03-26"): (
        "minitape's AttributeError adds an explanation in parentheses after TF's words "
        "('numpy.float32' object has no attribute '_id' (a gradient target must be a tensor ...)), "
        "on purpose (README, Where minitape differs)"
    ),
    ("notebooks/03_what_gets_watched.ipynb", "nb03-30"): LOGGED,
    ("notebooks/07_gans.ipynb", "07-gans-037"): LOGGED,
    ("notebooks/05_higher_order.ipynb", "05-higher-or-033"): PFOR,
    ("notebooks/09_custom_training_step.ipynb", "09-custom-tr-021a"): (
        "TF's CheckNumerics error, raised in the backward pass, begins with {{function_node "
        "__wrapped__CheckNumerics_device_/job:localhost/replica:0/task:0/device:CPU:0}} and ends "
        "with ' name: '; and tf.debugging.enable/disable_check_numerics log "
        "INFO:tensorflow:Enabled (Disabled) check-numerics callback in thread MainThread"
    ),
    ("notebooks/10_tf_function_and_fit.ipynb", "09-custom-tr-026"): (
        "prints str(concrete_function.graph): minitape lists the traced graph op by op, TF's "
        "FuncGraph prints its name and id only"
    ),
}
