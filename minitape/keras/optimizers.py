"""Optimizers: turn gradients into updates of the variables.

    opt = tf.keras.optimizers.SGD(learning_rate=0.1)
    grads = tape.gradient(loss, [w, b])
    opt.apply_gradients(zip(grads, [w, b]))     # w -= 0.1 * dloss/dw, and b likewise

An optimizer keeps its state in variables: `iterations` (steps applied so far),
`learning_rate`, and per-variable "slots" (SGD's momentum, Adam's two moving averages).
Because the state lives in variables and not in Python numbers, a training step traced by
`minitape.function` reads and updates it on every replay.

The updates are written with minitape ops in the order Keras computes them, so the float32
results are TF's. They change variables in place (`assign`, `assign_add`, `assign_sub`).
"""

import re
import warnings

import numpy as np

from .. import dtypes
from ..clip_ops import clip_by_global_norm, clip_by_norm
from ..errors import InvalidArgumentError
from ..function import init_scope
from ..indexed_slices import IndexedSlices
from ..ops import Mul, cast, clip_by_value, maximum, sqrt, square, zeros_like
from ..tape import apply
from ..tensor import Tensor, Variable, as_seen_by_tapes, convert_to_tensor, held_variable
from ._config import from_config
from .base_layer import _unique_name
from .variables import Variable as KerasVariable

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "Adagrad", "RMSprop", "get"]


_TF_TENSOR = "tensorflow.python.framework.ops.EagerTensor"  # (a tensor's type, as TF names it)
_ONE = Tensor(np.int64(1))  # what each step adds to `iterations`


def _short(x):
    text = repr(x)
    return text if len(text) < 80 else text[:77] + "..."


def _own_variable(optimizer, value, dtype, name):
    """A scalar Keras variable of `optimizer`'s (non-trainable), named `name`, its path
    'sgd/name'."""
    return KerasVariable(
        value, (), dtype=dtype, trainable=False, name=name, path=f"{optimizer.name}/{name}"
    )


class Optimizer:
    """What every optimizer shares: checking the (gradient, variable) pairs, optional
    clipping, the slots, and the step counter. A subclass writes `_update(grad, var, lr)`,
    where `lr` is the learning rate read for this step."""

    def __init__(
        self,
        learning_rate,
        name,
        clipnorm=None,
        clipvalue=None,
        global_clipnorm=None,
        weight_decay=None,
        **kwargs,
    ):
        if kwargs:  # (Keras 3's words)
            raise ValueError(f"Argument(s) not recognized: {kwargs}")
        if sum(a is not None for a in (clipnorm, clipvalue, global_clipnorm)) > 1:
            raise ValueError(
                "Only one of `clipnorm`, `clipvalue` and `global_clipnorm` can be set. "
                f"Received: clipnorm={clipnorm}, clipvalue={clipvalue}, "
                f"global_clipnorm={global_clipnorm}"
            )
        if not isinstance(learning_rate, float):  # (Keras 3: a Python float, not 1 or a tensor)
            raise ValueError(
                "Argument `learning_rate` should be float, or an instance of "
                "LearningRateSchedule, or a callable (that takes in the current "
                "iteration value and returns the corresponding learning rate value)."
                f" Received instead: learning_rate={learning_rate!r}"
            )
        self.name = name or _unique_name(type(self))  # ('adam', 'adam_1', 'rm_sprop', as Keras 3)
        self.clipnorm, self.clipvalue, self.global_clipnorm = clipnorm, clipvalue, global_clipnorm
        self.weight_decay = weight_decay
        with init_scope():  # (Keras 3 variables, named 'adam/iteration' as in Keras)
            self._learning_rate = _own_variable(
                self, learning_rate, dtypes.float32, "learning_rate"
            )
            self.iterations = _own_variable(self, 0, dtypes.int64, "iteration")
        self._scope = ""  # (the outer optimizer's name and '/', for a wrapped one's slot paths)
        self._slots = {}
        self._restore_later = {}  # (position in `variables` -> a value a checkpoint holds for it)
        self._built_with = None  # the variables of the first step (Keras 3 builds on them)
        self._no_decay, self._no_decay_names = set(), None  # (exclude_from_weight_decay)

    @property
    def learning_rate(self):
        """A variable: `opt.learning_rate = 0.01` assigns it (seen by traced steps too)."""
        return self._learning_rate

    @learning_rate.setter
    def learning_rate(self, value):
        self._learning_rate.assign(value)

    lr = learning_rate

    def scale_loss(self, loss):
        """The loss a train step differentiates: this one, unchanged (a LossScaleOptimizer
        multiplies it by its scale)."""
        return loss

    @property
    def variables(self):
        """The optimizer's state: `iterations`, `learning_rate`, then the slots in the order
        `build` made them (what a checkpoint saves)."""
        return [self.iterations, self._learning_rate, *self._slots.values()]

    # The slots, made for every variable when the optimizer is built, in Keras 3's order:
    # groups of kinds, each group variable by variable, each kind a tuple (the key the update
    # code uses, Keras' name, the initial value).
    def _slot_kinds(self):
        return []

    def _slot(self, var, name):
        """The tf.Variable holding this optimizer's state `name` for `var` (the update code
        assigns it as any tf.Variable)."""
        return self._slots[(var.ref(), name)]._variable

    def _make_slot(self, var, key, keras_name, initial):
        """A slot of `var`'s shape, `initial` everywhere (zero), named as Keras names it:
        'dense_kernel_momentum' for a Keras variable, 'w_0_momentum' for a tf.Variable 'w'."""
        if isinstance(var, KerasVariable):
            prefix = var.path.replace("/", "_")
        else:
            prefix = str(var.name).replace("/", "_").replace(":", "_")
        name = f"{prefix}_{keras_name}"
        tf_var = as_seen_by_tapes(var)
        with init_scope():
            start = zeros_like(tf_var) if initial == 0 else zeros_like(tf_var) + initial
            slot = self._slots[(tf_var.ref(), key)] = KerasVariable(
                start, trainable=False, name=name, path=f"{self._scope}{self.name}/{name}"
            )
        if self._restore_later:  # (a checkpoint read before this slot was made: TF restores
            value = self._restore_later.pop(1 + len(self._slots), None)  # it now)
            if value is not None:
                slot.assign(value)

    def get_slot(self, var, name):
        return self._slots[(as_seen_by_tapes(var).ref(), name)]

    # -- applying gradients --------------------------------------------------------------
    def build(self, var_list):
        """Make this optimizer the one of `var_list`: as in Keras 3, it then refuses to update
        any other variable (the first `apply_gradients` builds it on the variables it gets)."""
        var_list = list(var_list)
        for v in var_list:
            if not isinstance(v, Variable) and held_variable(v) is None:  # (TF's class, its words)
                kind = _TF_TENSOR if type(v) is Tensor else type(v).__name__
                raise AttributeError(
                    f"'{kind}' object has no attribute '_unique_id' (an optimizer is built on "
                    f"the variables it will update; got {_short(v)})"
                )
        # (a variable's id is its own for good; a Keras 3 variable's is the tf.Variable's)
        self._built_with = {as_seen_by_tapes(v)._id for v in var_list}
        self._built_list = var_list
        for group in self._slot_kinds():
            for v in var_list:
                for key, keras_name, initial in group:
                    self._make_slot(v, key, keras_name, initial)

    def _check_known(self, variables):
        if self._built_with is None:
            self.build(variables)
        for v in variables:
            if v._id not in self._built_with:
                raise ValueError(
                    f"Unknown variable: {v}. This optimizer can only be called for the "
                    "variables it was originally built with. When working with a new set of "
                    "variables, you should recreate a new optimizer instance."
                )

    def apply_gradients(self, grads_and_vars, name=None, **kwargs):
        """Update each variable from its gradient; pairs whose gradient is None are skipped
        (with a warning). Returns `iterations`, the step counter, after incrementing it."""
        pairs = self._clip(self._check_pairs(grads_and_vars))
        lr = self._learning_rate._variable._read()  # read once per step, as Keras does
        if self.weight_decay is not None:  # (decoupled: w -= w * weight_decay * lr, first)
            for _, var in pairs:
                if self._decays(var):
                    wd, lr_var = cast(self.weight_decay, var.dtype), cast(lr, var.dtype)
                    var.assign(var - var * wd * lr_var, read_value=False)
        update = self._update
        for g, var in pairs:
            update(g, var, lr)
        # (1 as a tensor of its dtype: nothing to convert)
        self.iterations._variable.assign_add(_ONE, read_value=False)
        return self.iterations

    def exclude_from_weight_decay(self, var_list=None, var_names=None):
        """No weight decay for the variables of `var_list`, nor for those whose name contains
        one of `var_names` (regular expressions: ['bias'] leaves every bias alone). Keras 3
        says to call it before the first step, but takes it later too (its check looks for
        an attribute it never sets), and so does minitape: the next steps follow it."""
        self._no_decay = {as_seen_by_tapes(v)._id for v in var_list or ()}
        self._no_decay_names = re.compile("|".join(set(var_names))) if var_names else None

    def _decays(self, var):
        if var._id in self._no_decay:
            return False
        return self._no_decay_names is None or self._no_decay_names.search(var.name) is None

    def apply(self, grads, trainable_variables=None):
        """Keras 3's other spelling of `apply_gradients`, the gradients and the variables as
        two lists: `opt.apply(grads, model.trainable_variables)` (Keras' guide to a custom
        `train_step` writes it so). Without variables, those the optimizer was built with."""
        grads = list(grads)
        if not grads:
            return None
        if trainable_variables is None:
            if self._built_with is None:
                raise ValueError(
                    "When passing `grads` without `variables`, the optimizer must already be "
                    "built on a list of variables. Call `optimizer.build(trainable_variables)` "
                    "first. "
                )
            trainable_variables = self._built_list
        self.apply_gradients(zip(grads, list(trainable_variables)))
        return None

    def _check_pairs(self, grads_and_vars):
        try:
            items = list(grads_and_vars)
        except TypeError:
            raise TypeError(
                "apply_gradients expects an iterable of (gradient, variable) pairs, "
                "such as zip(grads, model.trainable_variables); got "
                f"{_short(grads_and_vars)}"
            ) from None
        if self._built_with is not None and self._known_pairs(items):
            return items
        for i, item in enumerate(items):
            if not (isinstance(item, (tuple, list)) and len(item) == 2):
                # (a sequence of another length fails Keras' unpacking: ValueError)
                bad_length = isinstance(item, (tuple, list, str))
                raise (ValueError if bad_length else TypeError)(
                    "apply_gradients expects (gradient, variable) pairs, such as "
                    f"zip(grads, model.trainable_variables); item {i} is {_short(item)}"
                )
            g, var = item
            if not isinstance(var, Variable) and held_variable(var) is None:
                hint = " Did you write zip(variables, grads)?" if isinstance(g, Variable) else ""
                raise TypeError(
                    f"apply_gradients: the second element of each pair must be a "
                    f"tf.Variable; pair {i} has {_short(var)}.{hint}"
                )
        # (Keras names a Keras variable by its path, 'dense/kernel', a tf.Variable by its name)
        names = [var.path if isinstance(var, KerasVariable) else var.name for _, var in items]
        if self._built_with is None:
            self.build([var for _, var in items])  # (on the variables as given: their names)
        items = [(g, as_seen_by_tapes(var)) for g, var in items]
        self._check_known([var for _, var in items])
        pairs, missing = [], []
        for (g, var), name in zip(items, names):
            if g is None:
                missing.append(name)
            else:
                pairs.append((self._check_grad(g, var), var))
        if not pairs:
            which = f" (Every gradient is None, for {names}.)" if names else ""
            raise ValueError(f"No gradients provided for any variable.{which}")
        if missing:
            warnings.warn(
                f"Gradients do not exist for variables {missing} when minimizing the loss. If "
                "using `model.compile()`, did you forget to provide a `loss` argument?",
                stacklevel=1,  # (as Keras: the warning names the optimizer's line)
            )
        return pairs

    def _known_pairs(self, items):
        """Whether every item is the common case, a (tensor, variable) tuple of a variable this
        optimizer was built with and a gradient of its dtype and shape: such pairs need none of
        `_check_pairs`' conversions (anything else takes them, and their errors)."""
        known = self._built_with
        for item in items:
            if type(item) is not tuple or len(item) != 2:
                return False
            g, var = item
            if type(g) is not Tensor or type(var) is not Variable or var._id not in known:
                return False
            gv, vv = g._value, var._snap._value
            # (`is`, quicker than `==`: an equal dtype that is another object takes the full
            # checks, which give the same pairs)
            if gv.dtype is not vv.dtype or gv.shape != vv.shape:
                return False
        return bool(items)

    @staticmethod
    def _check_grad(g, var):
        if isinstance(g, IndexedSlices):  # (a gather's gradient: Keras updates it sparsely)
            if g.dtype != var.dtype:
                g = IndexedSlices(cast(g.values, var.dtype), g.indices, g.dense_shape)
            return g
        if type(g) is Tensor:  # (the common case, quickly)
            gv, vv = g._value, var._read_value()
            if gv.dtype == vv.dtype and gv.shape == vv.shape:
                return g
        if isinstance(g, (Tensor, Variable)):
            g = convert_to_tensor(g)
            if g.dtype != var.dtype:
                g = cast(g, var.dtype)  # (Keras casts a gradient to its variable's dtype)
        else:
            g = convert_to_tensor(g, dtype=var.dtype)  # numpy / Python data take var's dtype
        if g.shape != var.shape and not _broadcasts_to(g.shape, var.shape):
            raise InvalidArgumentError(
                None,
                "apply_gradients",
                f"Cannot apply a gradient of "
                f"shape {tuple(g.shape)} to variable '{var.name}' of shape "
                f"{tuple(var.shape)}: var and grad do not have the same "
                f"shape.",
            )
        return g

    def _clip(self, pairs):
        """The (gradient, variable) pairs with their gradients clipped as asked."""
        if self.clipnorm is None and self.global_clipnorm is None and self.clipvalue is None:
            return pairs  # (the common case: nothing to clip)
        grads = [g for g, _ in pairs]
        # (as Keras: only a value > 0 clips, so clipnorm=0.0 leaves the gradients alone)
        if self.clipnorm and self.clipnorm > 0:
            grads = [clip_by_norm(g, self.clipnorm) for g in grads]
        elif self.global_clipnorm and self.global_clipnorm > 0:
            grads = clip_by_global_norm(grads, self.global_clipnorm)[0]
        elif self.clipvalue and self.clipvalue > 0:
            grads = [clip_by_value(g, -self.clipvalue, self.clipvalue) for g in grads]
        # (Keras clips with its own ops, which give a dense tensor for IndexedSlices too)
        return [(_dense(g), var) for g, (_, var) in zip(grads, pairs)]

    def _update(self, grad, var, lr):
        raise NotImplementedError

    def __repr__(self):
        return f"<tf.keras.optimizers.{type(self).__name__} name={self.name!r}>"


class SGD(Optimizer):
    """Gradient descent: `w -= learning_rate * g`.

    With momentum m, a velocity v (zero at first) accumulates past steps:
    `v = m * v - learning_rate * g; w += v`. With `nesterov=True`, the step looks ahead:
    `w += m * v - learning_rate * g` (using the new v)."""

    def __init__(self, learning_rate=0.01, momentum=0.0, nesterov=False, name=None, **kwargs):
        if not isinstance(momentum, float) or not 0 <= momentum <= 1:  # (Keras: a float)
            raise ValueError(
                f"`momentum` must be a float between [0, 1]. Received: momentum={momentum}"
            )
        super().__init__(learning_rate, name, **kwargs)
        self.momentum, self.nesterov = momentum, nesterov

    def _slot_kinds(self):
        return [[("momentum", "momentum", 0.0)]] if self.momentum != 0 else []

    def _update(self, g, var, lr):
        if type(g) is not Tensor:
            g = _dense(g)
        if self.momentum == 0 and type(g) is Tensor:
            dtype = g._value.dtype
            if dtype is lr._value.dtype and dtype is var._snap._value.dtype and dtype.kind == "f":
                # The common case: plain SGD, with the gradient, the learning rate and the
                # variable of one float dtype. `g * lr` is then the Mul op itself, applied
                # here without the operator's checks and conversions.
                var.assign_sub(apply(Mul, g, lr), read_value=False)
                return
        if lr._value.dtype != var._snap._value.dtype:  # (most often it has it already)
            lr = cast(lr, var.dtype)
        if self.momentum == 0:
            var.assign_sub(g * lr, read_value=False)
            return
        v = self._slot(var, "momentum")
        v.assign(-g * lr + v * self.momentum, read_value=False)
        var.assign_add(-g * lr + v * self.momentum if self.nesterov else v, read_value=False)


class Adam(Optimizer):
    """Adam (Kingma & Ba, 2015): a step size per weight, from running averages of the
    gradient (m) and of its square (v). At step t = 1, 2, ...:

        m += (g - m) * (1 - beta_1)              # i.e. m = beta_1*m + (1-beta_1)*g
        v += (g*g - v) * (1 - beta_2)            # i.e. v = beta_2*v + (1-beta_2)*g*g
        alpha = lr * sqrt(1 - beta_2**t) / (1 - beta_1**t)   # undoes m, v starting at 0
        w -= alpha * m / (sqrt(v) + epsilon)

    (written as Keras computes it, so float32 results match). With `amsgrad=True`, the
    largest v seen so far is used in the last line."""

    def __init__(
        self,
        learning_rate=0.001,
        beta_1=0.9,
        beta_2=0.999,
        epsilon=1e-7,
        amsgrad=False,
        name=None,
        **kwargs,
    ):
        super().__init__(learning_rate, name, **kwargs)
        self.beta_1, self.beta_2, self.epsilon, self.amsgrad = beta_1, beta_2, epsilon, amsgrad

    def _slot_kinds(self):
        kinds = [[("m", "momentum", 0.0), ("v", "velocity", 0.0)]]
        return kinds + [[("vhat", "velocity_hat", 0.0)]] if self.amsgrad else kinds

    def _update(self, g, var, lr):
        lr = cast(lr, var.dtype)
        t = cast(self.iterations + 1, var.dtype)  # this step's number, read at run time
        alpha = lr * sqrt(1 - self.beta_2**t) / (1 - self.beta_1**t)
        m, v = self._slot(var, "m"), self._slot(var, "v")
        m.assign_add((_dense(g) - m) * (1 - self.beta_1), read_value=False)
        v.assign_add((_square(g) - v) * (1 - self.beta_2), read_value=False)
        if self.amsgrad:
            v_hat = self._slot(var, "vhat")
            v_hat.assign(maximum(v_hat, v), read_value=False)
            v = v_hat
        var.assign_sub((m * alpha) / (sqrt(v) + self.epsilon), read_value=False)


class RMSprop(Optimizer):
    """RMSprop (Hinton, 2012), Keras' default optimizer for `compile`: divide each gradient by
    the root of a running average of its square (v, zero at first), so that every weight
    takes steps of about the same size:

        v = rho * v + (1 - rho) * g*g
        w -= lr * g / sqrt(v + epsilon)

    With `momentum` m, the steps accumulate in a velocity (`s = m * s + step; w -= s`); with
    `centered=True`, the running average of g itself (a) is taken off: `v - a*a + epsilon`.
    Written as Keras computes it, so float32 results match."""

    def __init__(
        self,
        learning_rate=0.001,
        rho=0.9,
        momentum=0.0,
        epsilon=1e-7,
        centered=False,
        name=None,
        **kwargs,
    ):
        super().__init__(learning_rate, name, **kwargs)
        self.rho, self.momentum, self.epsilon, self.centered = rho, momentum, epsilon, centered

    def _slot_kinds(self):
        kinds = [[("velocity", "velocity", 0.0)]]
        if self.momentum > 0:
            kinds.append([("momentum", "momentum", 0.0)])
        if self.centered:
            kinds.append([("average_gradient", "average_gradient", 0.0)])
        return kinds

    def _update(self, g, var, lr):
        lr = cast(lr, var.dtype)
        v = self._slot(var, "velocity")
        v.assign(v * self.rho + _square(g) * (1 - self.rho), read_value=False)
        g = _dense(g)
        if self.centered:
            a = self._slot(var, "average_gradient")
            a.assign(a * self.rho + g * (1 - self.rho), read_value=False)
            denominator = v - square(a) + self.epsilon
        else:
            denominator = v + self.epsilon
        increment = (lr * g) / sqrt(denominator)
        if self.momentum > 0:
            s = self._slot(var, "momentum")
            s.assign(s * self.momentum + increment, read_value=False)
            var.assign_sub(s, read_value=False)
        else:
            var.assign_sub(increment, read_value=False)


class AdamW(Adam):
    """Adam with decoupled weight decay (Loshchilov & Hutter, 2019): before each Adam step,
    `w -= w * weight_decay * lr` (Keras 3's AdamW: Adam's update, `weight_decay` 0.004 by
    default and never None)."""

    def __init__(
        self,
        learning_rate=0.001,
        weight_decay=0.004,
        beta_1=0.9,
        beta_2=0.999,
        epsilon=1e-7,
        amsgrad=False,
        name=None,
        **kwargs,
    ):
        super().__init__(
            learning_rate, beta_1, beta_2, epsilon, amsgrad, name, weight_decay=weight_decay,
            **kwargs,
        )  # fmt: skip
        if self.weight_decay is None:
            raise ValueError(
                f"Argument `weight_decay` must be a float. Received: weight_decay={weight_decay}"
            )


class Adagrad(Optimizer):
    """Adagrad (Duchi et al., 2011): each weight's step shrinks with the sum of its squared
    gradients so far (an accumulator that starts at `initial_accumulator_value`):

        acc += g*g
        w -= lr * g / sqrt(acc + epsilon)

    Written as Keras 3 computes it, so float32 results match."""

    def __init__(
        self,
        learning_rate=0.001,
        initial_accumulator_value=0.1,
        epsilon=1e-7,
        name=None,
        **kwargs,
    ):
        super().__init__(learning_rate, name, **kwargs)
        self.initial_accumulator_value, self.epsilon = initial_accumulator_value, epsilon

    def _slot_kinds(self):
        return [[("accumulator", "accumulator", self.initial_accumulator_value)]]

    def _update(self, g, var, lr):
        lr = cast(lr, var.dtype)
        acc = self._slot(var, "accumulator")
        acc.assign_add(_square(g), read_value=False)
        var.assign_sub((lr * _dense(g)) / sqrt(acc + self.epsilon), read_value=False)


def _dense(g):
    """A gradient as a dense tensor (a gather's IndexedSlices densified: where Keras adds a
    dense tensor to slices, the slices are densified first)."""
    return convert_to_tensor(g) if isinstance(g, IndexedSlices) else g


def _square(g):
    """`g * g` as Keras 3 computes it on TF: for IndexedSlices, each row is squared before the
    rows of a repeated index are added up (a sum of squares, not the square of a sum)."""
    if isinstance(g, IndexedSlices):
        return convert_to_tensor(IndexedSlices(square(g.values), g.indices, g.dense_shape))
    return square(g)


_BY_NAME = {"sgd": SGD, "adam": Adam, "adamw": AdamW, "adagrad": Adagrad, "rmsprop": RMSprop}


def get(identifier):
    """An optimizer from its name ('sgd', 'adam', 'rmsprop': default settings, any case), from
    a config dict (`{"class_name": "SGD", "config": {"momentum": 0.9}}`), or an instance as is;
    None stays None, as in Keras 3."""
    if identifier is None or isinstance(identifier, Optimizer):
        return identifier
    if isinstance(identifier, str) and identifier.lower() in _BY_NAME:
        return _BY_NAME[identifier.lower()]()
    if isinstance(identifier, dict):
        name = identifier.get("class_name")
        if not isinstance(name, str):  # (Keras fails on it: KeyError, AttributeError)
            raise ValueError(f"An optimizer config needs a 'class_name' string, got {identifier!r}")
        config = {**identifier, "class_name": name.lower()}
        return from_config(config, _BY_NAME, "optimizer")
    raise ValueError(f"Could not interpret optimizer identifier: {identifier}")


def _broadcasts_to(shape, target):
    """Whether a gradient of `shape` broadcasts to its variable's (a scalar does: Keras' update
    arithmetic broadcasts it)."""
    try:
        return np.broadcast_shapes(tuple(shape), tuple(target)) == tuple(target)
    except ValueError:
        return False
