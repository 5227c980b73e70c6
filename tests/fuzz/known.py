# ruff: noqa: E501  (one call and its reason a line)
"""Fuzzer calls where minitape does not do what TensorFlow 2.21 does, each with its reason and
minitape's own outcome, `call id: (reason, outcome)`. A call listed here is still run: it must
not leak an internal exception class, minitape's outcome must stay the one pinned here (the
exception class, or for a value its kinds, dtypes, shapes and digest), and it fails as soon as
minitape matches TF (then delete its line). The README's "Where minitape differs from
TensorFlow" says the same in prose. `python -m tests.fuzz.known` prints every call that differs
now, in this file's form (a reason of "?" for a call not listed yet)."""

KNOWN = {
    "script:autograph_if_expression_in_lambda_on_int_tensor()": (
        "`1 if x else 2` on an int32 tensor in a lambda given to tf.function: TF converts lambdas, and its cond refuses the int condition (InvalidArgumentError); minitape's AutoGraph does not convert a lambda holding a conditional expression, so it runs as Python, reading the traced value (returns 1; README, 'Where minitape differs')",
        ["returns", ["tensor", "int32", [], [1.0]]],
    ),
    "script:bfloat16_add()": (
        "a bfloat16 input: TF computes in bfloat16; minitape has no bfloat16 dtype (numpy has none, and ml_dtypes is not a dependency), so dtype='bfloat16' is TF's TypeError for a name that is no dtype (Cannot convert the argument `type_value`: 'bfloat16' to a TensorFlow DType)",
        ["raises", "TypeError"],
    ),
    "script:bfloat16_matmul()": (
        "a bfloat16 input: TF computes in bfloat16; minitape has no bfloat16 dtype (numpy has none, and ml_dtypes is not a dependency), so dtype='bfloat16' is TF's TypeError for a name that is no dtype (Cannot convert the argument `type_value`: 'bfloat16' to a TensorFlow DType)",
        ["raises", "TypeError"],
    ),
    "script:bfloat16_reduce_sum()": (
        "a bfloat16 input: TF computes in bfloat16; minitape has no bfloat16 dtype (numpy has none, and ml_dtypes is not a dependency), so dtype='bfloat16' is TF's TypeError for a name that is no dtype (Cannot convert the argument `type_value`: 'bfloat16' to a TensorFlow DType)",
        ["raises", "TypeError"],
    ),
    "script:bfloat16_softmax()": (
        "a bfloat16 input: TF computes in bfloat16; minitape has no bfloat16 dtype (numpy has none, and ml_dtypes is not a dependency), so dtype='bfloat16' is TF's TypeError for a name that is no dtype (Cannot convert the argument `type_value`: 'bfloat16' to a TensorFlow DType)",
        ["raises", "TypeError"],
    ),
    "keras.optimizers.Adam(learning_rate=lambda)": (
        "a learning rate given as a function of no arguments: Keras 3 accepts any callable and calls it each step; minitape takes a float or a LearningRateSchedule only (ValueError naming learning_rate)",
        ["raises", "ValueError"],
    ),
    "~Adam.apply_gradients(gv:int_var)": (
        "Adam on an int32 variable: Keras 3 multiplies the int32 variable's state by a float and TF's Mul refuses the mix (InvalidArgumentError); minitape's Adam converts beta_2 = 0.999 to the variable's int32 dtype first and refuses it (TypeError: Cannot convert 0.999 to EagerTensor of dtype int32)",
        ["raises", "TypeError"],
    ),
    "~tape.jacobian($y, $x, unconnected_gradients=(1,'a'))": (
        "a tuple as unconnected_gradients of jacobian: TF fails on it with TypeError before looking it up; minitape looks it up in UnconnectedGradients and refuses it as an unknown value (ValueError, as for any other wrong value)",
        ["raises", "ValueError"],
    ),
    "~Adam.apply_gradients(gv:str)": (
        "a string gradient for a float variable: Keras casts it, and TF's Cast has no string-to-float kernel (UnimplementedError); minitape converts the gradient to the variable's dtype first and refuses the string there (TypeError: Cannot convert 'ab' to EagerTensor of dtype float)",
        ["raises", "TypeError"],
    ),
    "stack(tf.float64, axis=0)": (
        "a dtype as the values of stack: TF fails indexing it ('DType' object is not subscriptable, TypeError); minitape's conversion refuses it (ValueError: unsupported type), as tf.convert_to_tensor(tf.float64) does",
        ["raises", "ValueError"],
    ),
    "nn.silu('float')": (
        "silu/softmax cross-entropy of a string: TF first casts its float constants to the string dtype (UnimplementedError from Cast); minitape refuses the string input at the op (InvalidArgumentError)",
        ["raises", "InvalidArgumentError"],
    ),
    "~tape.gradient($y, $x, output_gradients=[1.0,2.0,3.0])": (
        "output_gradients with more entries than there are targets: TF silently zips them (extra entries are ignored); minitape raises ValueError (README, 'Where minitape differs')",
        ["raises", "ValueError"],
    ),
    "foldr(fn:add, (f32_3,f32_2x3))": (
        "foldr over two sequences of different lengths (3 and 2): TF reads index 2, the first sequence's last, from the shorter one's TensorArray (OutOfRangeError: Tried to read from index 2 but array size is: 2); minitape slices it (InvalidArgumentError: slice index 2 of dimension 0 out of bounds, from StridedSlice)",
        ["raises", "InvalidArgumentError"],
    ),
    "~custom_gradient(dict)": (
        "a custom_gradient whose gradient function returns a Python number or string (or a dict holding one): TF passes the Python value on as the gradient (1.5, 'abc'; the dict's 1.0); minitape makes it a tensor (README; the gradient is then a tensor of that value)",
        ["returns", ["tensor", "float32", [], [1.0]]],
    ),
    "einsum('ij->ji', var_str)": (
        "einsum of a 0-d string variable: TF fails looking for a string kernel (NotFoundError); minitape checks the subscripts against the rank first (InvalidArgumentError)",
        ["raises", "InvalidArgumentError"],
    ),
    "~custom_gradient(str)": (
        "a custom_gradient whose gradient function returns a Python number or string (or a dict holding one): TF passes the Python value on as the gradient (1.5, 'abc'; the dict's 1.0); minitape makes it a tensor (README; the gradient is then a tensor of that value)",
        ["returns", ["tensor", "string", [], "507c5b9ed0"]],
    ),
    "~tape.batch_jacobian($y, $x, parallel_iterations=f32_0d)": (
        "a tensor as parallel_iterations of jacobian/batch_jacobian: TF's pfor compares it in Python inside the graph it builds (OperatorNotAllowedInGraphError, a subclass of TypeError); minitape, which builds no graph, refuses it with TypeError naming parallel_iterations",
        ["raises", "TypeError"],
    ),
    "~tape.batch_jacobian($y, $x, parallel_iterations=i32_0d)": (
        "a tensor as parallel_iterations of jacobian/batch_jacobian: TF's pfor compares it in Python inside the graph it builds (OperatorNotAllowedInGraphError, a subclass of TypeError); minitape, which builds no graph, refuses it with TypeError naming parallel_iterations",
        ["raises", "TypeError"],
    ),
    "~tape.jacobian($y, $x, parallel_iterations=i32_0d)": (
        "a tensor as parallel_iterations of jacobian/batch_jacobian: TF's pfor compares it in Python inside the graph it builds (OperatorNotAllowedInGraphError, a subclass of TypeError); minitape, which builds no graph, refuses it with TypeError naming parallel_iterations",
        ["raises", "TypeError"],
    ),
    "~custom_gradient(1.5)": (
        "a custom_gradient whose gradient function returns a Python number or string (or a dict holding one): TF passes the Python value on as the gradient (1.5, 'abc'; the dict's 1.0); minitape makes it a tensor (README; the gradient is then a tensor of that value)",
        ["returns", ["tensor", "float32", [], [1.5]]],
    ),
    "~recompute_grad(fn:str, f32_3)": (
        "recompute_grad of a function returning a Python string: TF's custom_gradient reads the string as a dtype and fails (TypeError: Cannot convert the argument `type_value`); minitape converts the output to a string tensor and returns it (its gradient is None)",
        ["returns", ["list", [["tensor", "string", [], "46042b4acb"], None]]],
    ),
    "script:tape_persistent_str()": (
        "GradientTape(persistent='no'): TF takes any truthy value (this call returns the tape) and fails only later, inside, on a second gradient call (InternalError); minitape refuses it at once with TypeError naming `persistent` (README; golden case tape_persistent_not_a_bool)",
        ["raises", "TypeError"],
    ),
    "clip_by_value(np_bool, 0.0, 1.5)": (
        "a numpy bool array clipped by floats: TF converts the bounds to bool first (TypeError 'Cannot convert 1.5 to EagerTensor of dtype bool'); minitape checks the tensor's dtype first (InvalidArgumentError: ClipByValue has no bool kernel)",
        ["raises", "InvalidArgumentError"],
    ),
    "argsort(f32_nan, axis=-1)": (
        "argsort with NaN: TF's argsort is TopKV2 on the negated values, whose NaN order is a detail of its kernel ([0 2 1] for [nan, inf, -1]); minitape's stable numpy argsort puts NaN last ([2 1 0]); sort's values agree",
        ["returns", ["tensor", "int32", [3], [2.0, 1.0, 0.0]]],
    ),
    "~custom_gradient_vars([str])": (
        "a custom_gradient whose gradient function returns a Python number or string (or a dict holding one): TF passes the Python value on as the gradient (1.5, 'abc'; the dict's 1.0); minitape makes it a tensor (README; the gradient is then a tensor of that value)",
        ["returns", ["tensor", "string", [], "507c5b9ed0"]],
    ),
    "@__rmul__(f32_2x3, string_2)": (
        "2-operand `string_tensor * float_tensor` reflected: TF's __rmul__ converts the left operand with the right's dtype strictly (ValueError from convert_to_tensor); minitape's reflected operators pass both tensors to the op, which refuses the mismatch (InvalidArgumentError, as tf.multiply does)",
        ["raises", "InvalidArgumentError"],
    ),
    "~tape.jacobian($y, $x, parallel_iterations=f32_0d)": (
        "a tensor as parallel_iterations of jacobian/batch_jacobian: TF's pfor compares it in Python inside the graph it builds (OperatorNotAllowedInGraphError, a subclass of TypeError); minitape, which builds no graph, refuses it with TypeError naming parallel_iterations",
        ["raises", "TypeError"],
    ),
    "~tape.gradient($y, $x, output_gradients=[f32_3,f32_3])": (
        "output_gradients with more entries than there are targets: TF silently zips them (extra entries are ignored); minitape raises ValueError (README, 'Where minitape differs')",
        ["raises", "ValueError"],
    ),
    "map_fn(fn:sq, int)": (
        "map_fn over the Python type `int`: TF fails building a TypeSpec for it (TypeError: Could not build a TypeSpec for <class 'int'>); minitape's conversion of elems refuses it (ValueError: Attempt to convert a value (<class 'int'>) with an unsupported type)",
        ["raises", "ValueError"],
    ),
    "~custom_gradient_vars([1.5])": (
        "a custom_gradient whose gradient function returns a Python number or string (or a dict holding one): TF passes the Python value on as the gradient (1.5, 'abc'; the dict's 1.0); minitape makes it a tensor (README; the gradient is then a tensor of that value)",
        ["returns", ["tensor", "float32", [], [1.5]]],
    ),
    "~SGD.apply_gradients(gv:str)": (
        "a string gradient for a float variable: Keras casts it, and TF's Cast has no string-to-float kernel (UnimplementedError); minitape converts the gradient to the variable's dtype first and refuses the string there (TypeError: Cannot convert 'ab' to EagerTensor of dtype float)",
        ["raises", "TypeError"],
    ),
    "vectorized_map(fn:none, f32_3)": (
        "vectorized_map of a function returning None: TF's pfor returns None; minitape refuses to stack it (ValueError: Attempt to convert a value (None) with an unsupported type)",
        ["raises", "ValueError"],
    ),
    "~grad_pass_through(fn:int, f32_3)": (
        "recompute_grad/grad_pass_through of a function returning an int32 tensor: TF's custom_gradient hands back a gradient for the float input anyway (zeros, or the int upstream itself); minitape's tape does not differentiate an integer target (None, as tape.gradient of an int target does)",
        ["returns", ["list", [["tensor", "int32", [], [1.0]], None]]],
    ),
    "nn.softmax_cross_entropy_with_logits(labels=f32_2x3, logits=str_0)": (
        "silu/softmax cross-entropy of a string: TF first casts its float constants to the string dtype (UnimplementedError from Cast); minitape refuses the string input at the op (InvalidArgumentError)",
        ["raises", "InvalidArgumentError"],
    ),
    "gather(f32_2x3, [1,0], axis=1e300)": (
        "axis=1e300 with indices given as a Python list: TF's fast path is skipped when any input is a list, and its slow path converts 1e300 as float32 (ValueError: out of range); minitape always converts a Python float axis to int32 strictly (TypeError, what TF does when every input is a tensor)",
        ["raises", "TypeError"],
    ),
    "~recompute_grad(fn:int, f32_3)": (
        "recompute_grad/grad_pass_through of a function returning an int32 tensor: TF's custom_gradient hands back a gradient for the float input anyway (zeros, or the int upstream itself); minitape's tape does not differentiate an integer target (None, as tape.gradient of an int target does)",
        ["returns", ["list", [["tensor", "int32", [], [1.0]], None]]],
    ),
    "keras.activations.softmax(f32_nan)": (
        "Keras softmax of [nan, inf, -1]: Keras 3's own softmax gives 0.0 for the finite entry; minitape's keras softmax is tf.nn.softmax, whose row is all nan once it holds a NaN",
        ["returns", ["tensor", "float32", [3], ["nan", "nan", "nan"]]],
    ),
}


if __name__ == "__main__":
    import json

    from .test_fuzz import CALLS, minitape_outcome, mismatch

    for call_id in sorted(CALLS):
        got = minitape_outcome(call_id)
        if mismatch(call_id, got):
            reason = KNOWN.get(call_id, ("?",))[0]
            print(f"    {json.dumps(call_id)}: ({json.dumps(reason)}, {got!r}),")
