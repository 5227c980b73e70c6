"""Cases minitape does not pass yet, with what differs: each one is marked xfail(strict=True), so
it turns into a failure as soon as minitape is fixed (then delete its line here). Never delete a
case from cases.py to make the suite pass. `pytest tests/tf_golden -rx` lists them."""

XFAIL = {
    # -- Keras 3 ------------------------------------------------------------------------------
    "keras_layer_variable_names": "a Keras 3 layer variable's .name is 'kernel' / 'bias' (the "
    "tape's watched_variables() are 'hid/kernel:0'); minitape's .name is 'hid/kernel:0'",
    "nb07_two_tapes_watch_every_variable_read": "TF names the variables of a layer inside a named "
    "Sequential 'generator/gen_hidden/kernel:0'; minitape omits the model's name "
    "('gen_hidden/kernel:0')",
}


# Where minitape differs from TF on purpose (README, "Where minitape differs from TensorFlow"):
# TF's behaviour is a silent wrong answer, an internal crash, or a CPU detail. Still recorded,
# still run: if either side changes, the case says so.
DIFFERENT = {
    "gradient_output_gradients_python_list": "output_gradients=[1.0, 0.0, -2.0] for one [3] "
    "target: TF zips the three entries with the one target, uses 1.0 and silently ignores the "
    "rest; minitape raises ValueError (one entry per target)",
    "gradient_output_gradients_wrong_count": "one output gradient for two targets: TF weights the "
    "first target and silently seeds the other with ones; minitape raises ValueError",
    "batch_jacobian_zero_batch": "batch_jacobian with a batch of 0: TF crashes with "
    "ZeroDivisionError; minitape returns the empty [0, 2, 2] Jacobian",
    "custom_gradient_grad_returns_python_float": "grad_fn returning the Python float 5.0: TF "
    "hands that float on as the gradient; minitape converts it to a tensor of the input's kind",
    "fn_clip_by_global_norm": "tf.clip_by_global_norm(..., use_norm=26.0) with a Python float: "
    "TF fails inside (AttributeError: no .dtype); minitape uses the number",
    "nb06_naive_gradient_nan_from_89": "gradient of log(1 + exp(x)) at x = 88.5 and 88.72 "
    "(float32): TF's CPU kernels flush the subnormal 1/(1 + e^x) to zero and give 0.0; numpy "
    "keeps subnormals and gives 1.0 (at 89.0 both give nan)",
    "nb06_log1pexp_float64": "the same at x = 709 in float64: TF 0.0 (subnormals flushed), "
    "minitape 1.0",
    "function_numpy_of_a_traced_tensor": "x.numpy() inside tf.function: TF raises (a graph "
    "tensor has no numpy value); minitape runs the function as Python on every call and gives "
    "the eager numbers",
    "tape_persistent_not_a_bool": "GradientTape(persistent='no'): TF takes the truthy string, "
    "answers the first gradient call and fails inside on the second (InternalError: internal "
    "state of the gradient tape is invalid); minitape raises TypeError naming `persistent`",
}
XFAIL.update(DIFFERENT)
