"""Cases minitape does not pass yet, with what differs: each one is marked xfail(strict=True), so
it turns into a failure as soon as minitape is fixed (then delete its line here). Never delete a
case from cases.py to make the suite pass. `pytest tests/tf_golden -rx` lists them."""

XFAIL = {
    # -- Python operators: what TF converts, truncates or refuses ----------------------------
    # -- functions: dtypes TF accepts or refuses --------------------------------------------
    "promotion_bool_arithmetic": "bool + bool and tf.reduce_sum(bool): TF raises "
    "InvalidArgumentError; minitape computes a logical or / True",
    "fn_clip_by_global_norm": "tf.clip_by_global_norm(..., use_norm=26.0) with a Python float: "
    "TF raises AttributeError; minitape accepts it",
    # -- gradients of functions ---------------------------------------------------------------
    "nb06_naive_gradient_nan_from_89": "gradient of log(1 + exp(x)) at x = 88.5 and 88.72 "
    "(float32): TF flushes the subnormal 1/(1 + e^x) to zero and gives 0.0; minitape gives 1.0",
    "nb06_log1pexp_float64": "naive log(1 + exp(x)) gradient at x = 709 (float64): TF flushes the "
    "subnormal 1/(1 + e^x) to zero and gives 0.0; minitape gives 1.0",
    # -- the tape -----------------------------------------------------------------------------
    "gradient_output_gradients_python_list": "output_gradients=[1.0, 0.0, -2.0] for one [3] "
    "target: TF zips the three entries with the one target, uses 1.0 and ignores the rest "
    "([2, 4, 6]); minitape raises ValueError",
    "gradient_output_gradients_wrong_count": "one output gradient for two targets: TF weights the "
    "first target and seeds the other with ones ([4, 6]); minitape raises ValueError",
    "batch_jacobian_zero_batch": "batch_jacobian with a batch of 0: TF raises ZeroDivisionError; "
    "minitape returns an empty [0, 2, 2] tensor",
    # -- custom_gradient ----------------------------------------------------------------------
    "custom_gradient_grad_returns_python_float": "grad_fn returning the Python float 5.0: TF's "
    "gradient is that float; minitape converts it to a float32 tensor",
    # -- tf.constant, conversion, dtypes ------------------------------------------------------
    # -- Variables and Tensors as Python objects ----------------------------------------------
    # -- error messages -----------------------------------------------------------------------
    # -- Keras 3 ------------------------------------------------------------------------------
    "keras_activation_relu_negative_slope": "Keras 3's relu takes negative_slope= and refuses "
    "alpha= (TypeError); minitape takes alpha= and refuses negative_slope=",
    "keras_layer_variable_names": "a Keras 3 layer variable's .name is 'kernel' / 'bias' (the "
    "tape's watched_variables() are 'hid/kernel:0'); minitape's .name is 'hid/kernel:0'",
    "nb07_two_tapes_watch_every_variable_read": "TF names the variables of a layer inside a named "
    "Sequential 'generator/gen_hidden/kernel:0'; minitape omits the model's name "
    "('gen_hidden/kernel:0')",
    "keras_loss_objects": "MeanSquaredError()(Python list, tensor): Keras 3 raises ValueError "
    "(Expected an instance of list); minitape computes the loss",
    # -- tf.function --------------------------------------------------------------------------
    "nb09_traced_step_equals_eager": "a tf.function whose first call creates the optimizer's "
    "variables is traced twice in TF (experimental_get_tracing_count() == 2); minitape counts 1",
    # -- classifier op families (cases_nn.py) -----------------------------------------------
    "nn_unstack_errors": "tf.unstack (ops.py) checks neither num= (TF: InvalidArgumentError from "
    "Unpack) nor the axis (TF: ValueError 'Argument `axis` = 2 not in range [-2, 2)'); minitape "
    "returns the pieces or raises an internal IndexError",
}
