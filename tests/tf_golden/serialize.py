"""Turn what a case returned (or raised) into plain JSON data, and compare two such records.

Used by `record.py` (under TensorFlow) and by `test_golden.py` (under minitape), so both sides
are described the same way. Imports neither TensorFlow nor minitape: tensors, variables, shapes
and dtypes are recognised by their attributes.

A record is JSON: `null` for None, and otherwise a dict with a "kind":

    tensor / variable   dtype, shape, value (nested lists; NaN and infinities as strings)
    ndarray / npscalar  the same, for numpy results
    py                  a Python scalar: type ("bool", "int", "float", "str") and value
    shape               a TensorShape: dims
    dtype               a DType: name
    list / tuple / dict a nest: items (a dict's keys as strings, sorted); a namedtuple is a
                        tuple that also names its fields
    error               an exception: class (its name) and message (normalised)
"""

import json
import math
import re

import numpy as np

__all__ = [
    "serialize",
    "run_case",
    "compare",
    "same_message",
    "normalise_message",
    "dumps",
    "DEFAULT_RTOL",
]

# Relative tolerance per dtype (a Python float is compared as a float64); atol for values near 0.
DEFAULT_RTOL = {"float16": 1e-3, "float32": 1e-5, "float64": 1e-6}
DEFAULT_ATOL = {"float16": 1e-3, "float32": 1e-6, "float64": 1e-9}


# --- serialising ----------------------------------------------------------------------------
def normalise_message(text):
    """An exception's text without what varies between runs or says nothing about behaviour:
    TF's `{{function_node ...}} ` prefix, its trailing ` name: ...`, object addresses, the
    folders of a file named in a traceback (they say where the checkout is)."""
    text = str(text).split("\nTraceback (most recent call last):")[0]  # (no file paths)
    text = re.sub(r"^\{\{function_node [^}]*\}\}\s*", "", text)
    text = re.sub(r"\s*name: [^\n]*$", "", text)
    text = re.sub(r"0x[0-9a-fA-F]+", "0x?", text)
    text = re.sub(r'File "[^"]*[/\\]([^"/\\]+)"', r'File "\1"', text)  # (no checkout's path)
    text = re.sub(r"\s*; NodeDef: .*?(?= \[Op:|$)", "", text, flags=re.S)  # TF's kernel dump
    text = re.sub(r"goo\.gle/debug\w*\s*", "goo.gle/debug ", text)
    return text.strip()


def _number(v):
    """A JSON-safe number: NaN and infinities become strings."""
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
    return v


def _values(arr):
    """A numpy array's values as nested lists of JSON-safe Python scalars."""
    arr = np.asarray(arr)
    if arr.dtype.kind in "SU":
        return (
            np.vectorize(lambda s: s.decode() if isinstance(s, bytes) else str(s), otypes=[object])(
                arr
            ).tolist()
            if arr.size
            else arr.tolist()
        )
    if arr.dtype.kind == "O":
        raise TypeError(f"cannot serialise an object array: {arr!r}")
    lst = arr.tolist()

    def walk(x):
        return [walk(y) for y in x] if isinstance(x, list) else _number(x)

    return walk(lst)


def _dtype_name(dtype):
    name = getattr(dtype, "name", None)
    return name if isinstance(name, str) else str(dtype)


def _is_variable(x):
    """A variable of TF, Keras or minitape (a slice of a TF variable also has `assign`, but is a
    tensor: tell them apart by class)."""
    return any(c.__name__.endswith("Variable") for c in type(x).__mro__)


def _is_tensor_like(x):
    return (
        hasattr(x, "numpy")
        and hasattr(x, "dtype")
        and hasattr(x, "shape")
        and not isinstance(x, (np.ndarray, np.generic))
    )


def serialize(x):
    """The JSON record of `x` (see the module docstring)."""
    if x is None:
        return None
    if isinstance(x, BaseException):
        return {"kind": "error", "class": type(x).__name__, "message": normalise_message(x)}
    if isinstance(x, bool):
        return {"kind": "py", "type": "bool", "value": x}
    if isinstance(x, int):
        return {"kind": "py", "type": "int", "value": x}
    if isinstance(x, float):
        return {"kind": "py", "type": "float", "value": _number(x)}
    if isinstance(x, str):
        return {"kind": "py", "type": "str", "value": x}
    if isinstance(x, np.generic):
        return {"kind": "npscalar", "dtype": x.dtype.name, "value": _values(x)}
    if isinstance(x, np.ndarray):
        return {
            "kind": "ndarray",
            "dtype": x.dtype.name,
            "shape": list(x.shape),
            "value": _values(x),
        }
    cls = type(x).__name__
    if cls == "TensorShape":
        return {"kind": "shape", "dims": None if x.rank is None else list(x.as_list())}
    if cls == "DType":
        return {"kind": "dtype", "name": x.name}
    if isinstance(x, dict):
        return {"kind": "dict", "items": {str(k): serialize(x[k]) for k in sorted(x, key=str)}}
    if isinstance(x, tuple):
        out = {"kind": "tuple", "items": [serialize(i) for i in x]}
        if hasattr(x, "_fields"):
            out["fields"] = list(x._fields)
        return out
    if isinstance(x, list):
        return {"kind": "list", "items": [serialize(i) for i in x]}
    if _is_tensor_like(x):
        kind = "variable" if _is_variable(x) else "tensor"
        value = np.asarray(x.numpy())
        return {
            "kind": kind,
            "dtype": _dtype_name(x.dtype),
            "shape": list(value.shape),
            "value": _values(value),
        }
    raise TypeError(
        f"a case returned something the golden record cannot describe: {x!r} "
        f"(of type {type(x).__module__}.{cls})"
    )


def run_case(fn, module):
    """Run one case against `module` (tensorflow or minitape): the record of its result, or of
    the exception it raised."""
    try:
        result = fn(module)
    except Exception as e:  # noqa: BLE001  (an exception is a result like any other)
        return serialize(e)
    return serialize(result)


def dumps(data, indent=0):
    """JSON text of a record file, diff-friendly: one key per line, sorted, with lists that hold
    no dicts (tensor values, shapes) written on one line."""
    pad, inner = " " * indent, " " * (indent + 1)
    if isinstance(data, dict):
        if not data:
            return "{}"
        items = [f"{inner}{json.dumps(k)}: {dumps(data[k], indent + 1)}" for k in sorted(data)]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(data, list) and any(isinstance(x, dict) for x in data):
        items = [f"{inner}{dumps(x, indent + 1)}" for x in data]
        return "[\n" + ",\n".join(items) + "\n" + pad + "]"
    return json.dumps(data, allow_nan=False, ensure_ascii=False)


# --- comparing ------------------------------------------------------------------------------
def _as_float(v):
    if isinstance(v, str):
        return {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}[v]
    return float(v)


def _close(a, b, dtype, rtol, atol):
    """Element-wise closeness of two nested value lists; NaN equals NaN, infinities exactly."""
    if isinstance(a, list) or isinstance(b, list):
        if not (isinstance(a, list) and isinstance(b, list)) or len(a) != len(b):
            return False
        return all(_close(x, y, dtype, rtol, atol) for x, y in zip(a, b))
    if dtype is None or not (dtype.startswith("float") or dtype.startswith("bfloat")):
        return a == b and type(a) is type(b)
    if isinstance(a, bool) or isinstance(b, bool):
        return False
    fa, fb = _as_float(a), _as_float(b)
    if math.isnan(fa) or math.isnan(fb):
        return math.isnan(fa) and math.isnan(fb)
    if math.isinf(fa) or math.isinf(fb):
        return fa == fb
    r = DEFAULT_RTOL.get(dtype, 1e-6) if rtol is None else rtol
    t = DEFAULT_ATOL.get(dtype, 1e-9) if atol is None else atol
    return abs(fa - fb) <= t + r * abs(fb)


def same_message(tf_message, minitape_message):
    """TF's message, or TF's message followed by an explanation in parentheses: minitape may
    say why after saying what TF says (an AttributeError about `_id` means little alone)."""
    return minitape_message == tf_message or (
        minitape_message.startswith(tf_message + " (") and minitape_message.endswith(")")
    )


def compare(expected, got, *, message=False, rtol=None, atol=None, path="result"):
    """The differences between two records, as a list of readable lines (empty: the same).

    Values are compared with a tolerance for their dtype; everything else (kinds, dtypes,
    shapes, structure, None, Python types, exception classes) exactly, and exception messages
    when `message` is true."""
    diffs = []
    if expected is None or got is None:
        if expected is not got:
            diffs.append(f"{path}: expected {_short(expected)}, got {_short(got)}")
        return diffs
    ek, gk = expected.get("kind"), got.get("kind")
    if ek != gk:
        return [f"{path}: expected {_short(expected)}, got {_short(got)}"]
    if ek == "error":
        if expected["class"] != got["class"]:
            diffs.append(
                f"{path}: expected {expected['class']}, got {got['class']} ({got['message']!r})"
            )
        elif message and not same_message(expected["message"], got["message"]):
            diffs.append(
                f"{path}: {expected['class']} message differs:\n"
                f"    TF:       {expected['message']!r}\n"
                f"    minitape: {got['message']!r}"
            )
        return diffs
    if ek in ("list", "tuple"):
        if expected.get("fields") != got.get("fields"):
            diffs.append(
                f"{path}: namedtuple fields {expected.get('fields')} != {got.get('fields')}"
            )
        e_items, g_items = expected["items"], got["items"]
        if len(e_items) != len(g_items):
            return diffs + [f"{path}: expected a {ek} of {len(e_items)}, got {len(g_items)}"]
        for i, (e, g) in enumerate(zip(e_items, g_items)):
            diffs += compare(e, g, message=message, rtol=rtol, atol=atol, path=f"{path}[{i}]")
        return diffs
    if ek == "dict":
        e_items, g_items = expected["items"], got["items"]
        if sorted(e_items) != sorted(g_items):
            return [f"{path}: dict keys {sorted(e_items)} != {sorted(g_items)}"]
        for k in sorted(e_items):
            diffs += compare(
                e_items[k], g_items[k], message=message, rtol=rtol, atol=atol, path=f"{path}[{k!r}]"
            )
        return diffs
    if ek in ("shape", "dtype"):
        if expected != got:
            diffs.append(f"{path}: expected {_short(expected)}, got {_short(got)}")
        return diffs
    if ek == "py":
        if expected["type"] != got["type"]:
            return [f"{path}: expected a Python {expected['type']}, got {got['type']}"]
        dtype = "float64" if expected["type"] == "float" else None
        if not _close(expected["value"], got["value"], dtype, rtol, atol):
            diffs.append(f"{path}: expected {expected['value']!r}, got {got['value']!r}")
        return diffs
    # tensor, variable, ndarray, npscalar
    if expected["dtype"] != got["dtype"]:
        return [f"{path}: expected dtype {expected['dtype']}, got {got['dtype']}"]
    if expected.get("shape") != got.get("shape"):
        return [f"{path}: expected shape {expected.get('shape')}, got {got.get('shape')}"]
    if not _close(expected["value"], got["value"], expected["dtype"], rtol, atol):
        diffs.append(
            f"{path}: values differ ({expected['dtype']}):\n"
            f"    TF:       {_short(expected['value'])}\n"
            f"    minitape: {_short(got['value'])}"
        )
    return diffs


def _short(x, limit=300):
    text = repr(x)
    return text if len(text) <= limit else text[: limit - 3] + "..."
