"""Cases minitape does not pass yet, with what differs: each one is marked xfail(strict=True), so
it turns into a failure as soon as minitape is fixed (then delete its line here). Never delete a
case from cases.py to make the suite pass. `pytest tests/tf_golden -rx` lists them."""

XFAIL = {
    # -- Python operators: what TF converts, truncates or refuses ----------------------------
    "op_add_left_npfloat64_tensor_int32": "TF truncates np.float64(1.5) to the int tensor's dtype "
    "(1.5 + [3, -2] = [4, -1]); minitape raises TypeError (np.float32 is already truncated)",
    "op_add_left_npfloat64_tensor_int64": "TF truncates np.float64(1.5) to int64 ([4, -1]); "
    "minitape raises TypeError",
    "op_pow_right_npfloat64_variable_int32": "TF truncates np.float64(1.5) to int32 (v ** 1 = "
    "[3, -2]); minitape raises TypeError",
    "op_pow_right_npfloat64_variable_int64": "TF truncates np.float64(1.5) to int64 (v ** 1 = "
    "[3, -2]); minitape raises TypeError",
    "op_add_right_float_tensor_int32": "int32 tensor + 1.5: TF converts 1.5 to float32 and AddV2 "
    "raises InvalidArgumentError; minitape raises TypeError (TF's `*`, `-`, ... raise TypeError)",
    "op_add_right_float_tensor_int64": "int64 tensor + 1.5: TF raises InvalidArgumentError from "
    "AddV2; minitape raises TypeError",
    "op_matmul_right_float_tensor_int32": "int32 matrix @ 1.5: TF raises InvalidArgumentError from "
    "MatMul; minitape raises TypeError",
    "op_matmul_right_float_tensor_int64": "int64 matrix @ 1.5: TF raises InvalidArgumentError from "
    "MatMul; minitape raises TypeError",
    "op_eq_right_float_tensor_int32": "int32 tensor == 1.5: TF raises TypeError (cannot convert "
    "1.5 to int32); minitape returns the Python bool False",
    "op_eq_right_float_tensor_int64": "int64 tensor == 1.5: TF raises TypeError; minitape returns "
    "the Python bool False",
    "op_ne_right_float_tensor_int32": "int32 tensor != 1.5: TF raises TypeError; minitape returns "
    "the Python bool True",
    "op_ne_right_float_tensor_int64": "int64 tensor != 1.5: TF raises TypeError; minitape returns "
    "the Python bool True",
    "op_big_python_int_with_int32_tensor": "int32 tensor + 2**40: TF wraps the int to int32 (0) "
    "and returns [1, 2]; minitape raises OverflowError",
    "op_logical_operators_with_python_bool": "True | bool tensor: TF's reflected __ror__ gives "
    "[True, True]; minitape has no __ror__ (TypeError)",
    "op_neg_abs_pos_variable": "unary + on a Variable or a Tensor raises TypeError in TF (bad "
    "operand type for unary +); minitape returns the value",
    "tensor_equality_and_membership": "[1., 2.] == [1., 2., 3.] (incompatible shapes): TF returns "
    "a scalar bool tensor False; minitape returns the Python bool False",
    # -- functions: dtypes TF accepts or refuses --------------------------------------------
    "fn_binary_python_operands": "tf.add(1, 2.5): TF converts each argument on its own (int32, "
    "float32) and AddV2 raises InvalidArgumentError; minitape raises TypeError",
    "fn_binary_python_operand_takes_tensor_dtype": "tf.add(1.5, float64 tensor): TF converts the "
    "first argument alone (float32) and raises InvalidArgumentError; minitape gives a float64 sum",
    "fn_logical_and": "tf.logical_and on int32 tensors: TF raises InvalidArgumentError (bool "
    "needed); minitape computes a bool result",
    "fn_logical_or": "tf.logical_or on int32 tensors: TF raises InvalidArgumentError; minitape "
    "computes a bool result",
    "fn_math_logical_xor": "tf.math.logical_xor on int32 tensors: TF raises InvalidArgumentError "
    "(from its LogicalOr); minitape computes a bool result",
    "fn_logical_not": "tf.logical_not on a float tensor: TF raises InvalidArgumentError; minitape "
    "computes a bool result",
    "fn_reduce_all_any": "tf.reduce_all on a float tensor: TF raises InvalidArgumentError; "
    "minitape returns False",
    "fn_is_nan_inf_finite": "tf.math.is_nan on an int32 tensor: TF raises InvalidArgumentError; "
    "minitape returns [False, False]",
    "promotion_bool_arithmetic": "bool + bool and tf.reduce_sum(bool): TF raises "
    "InvalidArgumentError; minitape computes a logical or / True",
    "promotion_int_division": "int16 / int16, int8 / 2 and uint8 / 2 are float32 in TF; minitape "
    "gives float64 (TF uses float64 only for int32 and int64)",
    "fn_divide_no_nan_int": "tf.math.divide_no_nan on int32 tensors: TF casts to float64 "
    "([0., 1.]); minitape raises InvalidArgumentError",
    "fn_linspace": "tf.linspace(0, 1, 3) with Python ints: TF gives float64 [0., 0.5, 1.]; "
    "minitape raises TypeError",
    "fn_integer_division_and_mod": "int32 // 0: TF raises InvalidArgumentError (Integer division "
    "by zero); minitape returns 0",
    "fn_reduce_empty": "reduce_max / reduce_min of an empty tensor: TF returns -inf / inf; "
    "minitape raises InvalidArgumentError",
    "fn_concat": "tf.concat([], 0): TF raises InvalidArgumentError; minitape raises ValueError",
    "fn_stack_unstack": "tf.stack of shapes [2] and [1]: TF raises InvalidArgumentError (from "
    "Pack); minitape raises ValueError",
    "fn_eye": "tf.eye(2, batch_shape=[2]): TF returns shape [2, 2, 2]; minitape ignores "
    "batch_shape ([2, 2])",
    "fn_clip_by_global_norm": "tf.clip_by_global_norm(..., use_norm=26.0) with a Python float: "
    "TF raises AttributeError; minitape accepts it",
    "fn_getitem_list_and_bool_index": "x[[0, 2]] on a vector: TF reads it as x[0, 2] and raises "
    "InvalidArgumentError, minitape gathers; x[1.0]: TF raises TypeError, minitape "
    "InvalidArgumentError",
    "fn_random_errors": "tf.random.normal(dtype=tf.int32): TF raises TypeError (cannot convert "
    "0.0 to int32); minitape raises ValueError",
    # -- gradients of functions ---------------------------------------------------------------
    "fn_nn_relu_float32": "second derivative of tf.nn.relu: TF gives computed zeros (ReluGrad is "
    "differentiable); minitape gives None",
    "fn_nn_elu_float32": "second derivative of tf.nn.elu at 0: TF gives 0.0; minitape gives 1.0",
    "fn_where_nan_gradient_trap": "gradient of tf.where(x > 0, sqrt(x), 0) at x = 0: TF's sqrt "
    "gradient is 0 where the upstream gradient is 0 (0.0); minitape gives nan",
    "nb06_naive_gradient_nan_from_89": "gradient of log(1 + exp(x)) at x = 88.5 and 88.72 "
    "(float32): TF flushes the subnormal 1/(1 + e^x) to zero and gives 0.0; minitape gives 1.0",
    "nb06_log1pexp_float64": "naive log(1 + exp(x)) gradient at x = 709 (float64): TF flushes the "
    "subnormal 1/(1 + e^x) to zero and gives 0.0; minitape gives 1.0",
    # -- the tape -----------------------------------------------------------------------------
    "gradient_output_gradients_wrong_shape": "output_gradients of shape [2] for a [3] target: TF "
    "raises InvalidArgumentError from Mul (Incompatible shapes); minitape raises ValueError",
    "gradient_output_gradients_broadcastable_shape": "output_gradients of shape [2] for a [2, 2] "
    "target: TF broadcasts it ([[2, 40], [6, 80]]); minitape raises ValueError",
    "gradient_output_gradients_python_list": "output_gradients=[1.0, 0.0, -2.0] for one [3] "
    "target: TF zips the three entries with the one target, uses 1.0 and ignores the rest "
    "([2, 4, 6]); minitape raises ValueError",
    "gradient_output_gradients_wrong_count": "one output gradient for two targets: TF weights the "
    "first target and seeds the other with ones ([4, 6]); minitape raises ValueError",
    "integer_variable_target": "tape.gradient(n, n) for an int32 variable: TF returns the int32 "
    "tensor 1; minitape returns None",
    "watched_variables_assign_only": "a variable only assigned inside the tape: TF's "
    "watched_variables() lists it; minitape's is empty",
    "watch_outside_block": "tape.watch() before the tape is entered: TF raises AttributeError "
    "('NoneType' object has no attribute '_tape'); minitape watches",
    "stop_recording_after_exit_persistent": "stop_recording() on a persistent tape after its "
    "block: TF raises ValueError (Tape is not recording.); minitape runs the block",
    "batch_jacobian_zero_batch": "batch_jacobian with a batch of 0: TF raises ZeroDivisionError; "
    "minitape returns an empty [0, 2, 2] tensor",
    "target_numpy_float32": "message: minitape appends '(a gradient target must be a tensor "
    "computed inside the tape, not a numpy.float32)' to TF's AttributeError text",
    "target_numpy_mean_of_numpy_value": "message: minitape appends '(a gradient target must be a "
    "tensor ...)' to TF's AttributeError text",
    "target_numpy_mean_of_tensor": "message: minitape appends '(a gradient target must be a "
    "tensor ...)' to TF's AttributeError text",
    "target_python_float": "message: minitape appends '(a gradient target must be a tensor "
    "computed inside the tape, not a float)' to TF's AttributeError text",
    "nb03_6_3_numpy_detour_target": "message: minitape appends '(a gradient target must be a "
    "tensor ...)' to TF's AttributeError text",
    # -- custom_gradient ----------------------------------------------------------------------
    "custom_gradient_grad_returns_python_float": "grad_fn returning the Python float 5.0: TF's "
    "gradient is that float; minitape converts it to a float32 tensor",
    "custom_gradient_string_argument": "a str argument to a custom_gradient function: TF passes "
    "it through; minitape converts it to a tensor and raises ValueError",
    # -- tf.constant, conversion, dtypes ------------------------------------------------------
    "constant_dtype_argument": "tf.constant(1, dtype=float) and dtype='float' are float32 in TF "
    "(minitape: float64); dtype=int raises TypeError in TF (minitape: int64); tf.constant(1, "
    "dtype=bool) raises TypeError in TF (minitape: True)",
    "constant_dtype_inference": "tf.constant(1e40): TF raises ValueError (out of range); minitape "
    "gives float32 inf",
    "constant_big_ints": "tf.constant(2**63): TF raises ValueError; minitape wraps it to -2**63",
    "constant_float_to_int_refused": "tf.constant(1, dtype=tf.bool) raises TypeError in TF "
    "(minitape: True); tf.constant(-1, dtype=tf.uint8) is 255 and tf.constant(300, "
    "dtype=tf.int8) is 44 in TF (minitape: OverflowError)",
    "constant_of_tensor_and_variable": "tf.constant(float32 tensor, dtype=tf.float64) raises "
    "TypeError in TF (minitape casts); tf.constant([t, t]) and tf.constant([1.0, t[0]]) raise "
    "ValueError in TF (minitape stacks them)",
    "constant_string": "tf.constant('abc') is a string tensor in TF; minitape raises ValueError",
    "variable_errors": "tf.Variable('abc') is a string variable in TF; minitape raises ValueError",
    "convert_to_tensor_rules": "tf.convert_to_tensor(np.array([1.5]), dtype_hint=tf.float32) is "
    "float32 in TF; minitape keeps float64",
    "as_dtype_rules": "tf.as_dtype(float) is float32 in TF (minitape: float64); tf.as_dtype(int) "
    "raises TypeError in TF (minitape: int64)",
    # -- Variables and Tensors as Python objects ----------------------------------------------
    "variable_assign_family": "v.assign_add(1) on a [2] variable: TF raises InvalidArgumentError "
    "(no broadcasting in assign); minitape broadcasts",
    "variable_assign_errors": "assigning a float64 tensor to a float32 variable: TF raises "
    "ValueError (minitape TypeError); assigning 'x': TF raises TypeError (minitape ValueError)",
    "variable_assign_returns_variable": "v.assign(0.0, read_value=False) returns None in TF; "
    "minitape returns the variable",
    "variable_assign_wrong_shape_message": "message: TF says \"Cannot assign value to variable ' "
    "Variable:0': Shape mismatch.The variable shape (2,), and the assigned value shape (3,) are "
    'incompatible."; minitape words it differently',
    "variable_python_protocols": "len(v), format(v, '.3f') and v.ndim fail on a TF variable "
    "(TypeError, TypeError, AttributeError); minitape answers them",
    "tensor_python_protocols": "format(vector, '.3f'): TF raises TypeError (minitape ValueError); "
    "a list indexed by a float tensor: TF raises AttributeError (minitape TypeError)",
    # -- error messages -----------------------------------------------------------------------
    "fn_binary_incompatible_shapes_message": "message: TF writes shapes without spaces "
    "('[1,2] vs. [3]'); minitape writes '[1, 2]'",
    "fn_matmul_size_mismatch": "message: TF writes 'In[0]: [2,3], In[1]: [2,3]' without spaces; "
    "minitape writes '[2, 3]'",
    "fn_reshape_error_message": "message: TF says 'the requested shape has 8'; minitape says 'the "
    "requested shape [4, 2] has 8'",
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
}
