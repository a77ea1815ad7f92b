#!/usr/bin/env python3
"""Runs generated NumPy and PyTorch programs and compares what they leave in
`output` (and `indices`) with StrideScope's result, bit for bit.

    run_programs.py CASES_DIR

CASES_DIR/manifest.json lists the cases, each
    {"name": N, "dtype": "float32", "shape": [...], "indices": "uint32" or null,
     "programs": {"numpy": true, "torch": false}}
(true: the program must run; false: it must raise NotImplementedError), beside
N.out.bin (the logical output, row-major, the output's dtype) and N.idx.bin
(the logical indices as uint64). The programs are N.numpy.py, N.torch.py and
N.onnx.py; an ONNX program is checked for its model's outputs (names, types,
inferred sizes), as there is no ONNX runtime here to run it.
All run in this one process (runpy), so the frameworks are imported once.
Prints one line per failure and a summary; exits 1 if anything failed.
"""
import json
import os
import runpy
import sys

import numpy as np

try:
    import torch
except ImportError:  # the NumPy programs are still checked
    torch = None


def as_numpy(value):
    if torch is not None and isinstance(value, torch.Tensor):
        return value.contiguous().numpy()
    return np.asarray(value)


def check_onnx(scope, case):
    """The program checked the model itself; this checks what it claims."""
    import onnx
    model = scope.get("model")
    if not isinstance(model, onnx.ModelProto):
        return "left no ONNX `model`"
    onnx.checker.check_model(model, full_check=True)
    outputs = {value.name: value for value in model.graph.output}
    expected = {"output": (case["dtype"], case["shape"])}
    if case["indices"]:
        expected["indices"] = (case["indices"], case["shape"])
    if sorted(outputs) != sorted(expected):
        return "graph outputs %s, expected %s" % (sorted(outputs), sorted(expected))
    for name, (dtype, shape) in expected.items():
        tensor_type = outputs[name].type.tensor_type
        got_dtype = onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[tensor_type.elem_type]
        got_shape = [d.dim_value for d in tensor_type.shape.dim]
        if got_dtype != np.dtype(dtype) or got_shape != shape:
            return "%s is %s %s, expected %s %s" % (name, got_dtype, got_shape, dtype, shape)
    feed = scope["feeds"]["input"]
    if list(feed.shape) != case["input_shape"]:
        return "feeds the input as %s, expected %s" % (list(feed.shape), case["input_shape"])
    return None


def check_case(folder, case, language):
    path = os.path.join(folder, case["name"] + "." + language + ".py")
    runnable = case["programs"][language]
    argv = sys.argv
    sys.argv = [path]
    try:
        scope = runpy.run_path(path, run_name="__main__")
    except NotImplementedError as error:
        return None if not runnable else "raised NotImplementedError: %s" % error
    finally:
        sys.argv = argv
    if not runnable:
        return "ran, but should raise NotImplementedError"
    if language == "onnx":
        return check_onnx(scope, case)
    if "output" not in scope:
        return "left no `output`"
    output = scope["output"]
    if language == "torch" and not isinstance(output, torch.Tensor):
        return "`output` is not a torch tensor"
    if language == "numpy" and not isinstance(output, np.ndarray):
        return "`output` is not a NumPy array"
    got = as_numpy(output)
    if got.dtype != np.dtype(case["dtype"]):
        return "output dtype %s, expected %s" % (got.dtype, case["dtype"])
    if list(got.shape) != case["shape"]:
        return "output shape %s, expected %s" % (list(got.shape), case["shape"])
    with open(os.path.join(folder, case["name"] + ".out.bin"), "rb") as f:
        expected = f.read()
    if got.tobytes() != expected:
        want = np.frombuffer(expected, dtype=got.dtype).reshape(got.shape)
        first = next(i for i in range(got.size)
                     if got.reshape(-1)[i:i + 1].tobytes() != want.reshape(-1)[i:i + 1].tobytes())
        return "output differs at flat %d: got %r, expected %r" % (
            first, got.reshape(-1)[first], want.reshape(-1)[first])
    if case["indices"]:
        if "indices" not in scope:
            return "left no `indices`"
        indices = as_numpy(scope["indices"])
        want_dtype = np.dtype(case["indices"]) if language == "numpy" else np.dtype("int64")
        if indices.dtype != want_dtype:
            return "indices dtype %s, expected %s" % (indices.dtype, want_dtype)
        if list(indices.shape) != case["shape"]:
            return "indices shape %s, expected %s" % (list(indices.shape), case["shape"])
        with open(os.path.join(folder, case["name"] + ".idx.bin"), "rb") as f:
            want = np.frombuffer(f.read(), dtype=np.uint64)
        if not np.array_equal(indices.reshape(-1).astype(np.uint64), want):
            return "indices differ: got %s, expected %s" % (indices.reshape(-1).tolist(), want.tolist())
    return None


def main():
    folder = sys.argv[1]
    with open(os.path.join(folder, "manifest.json")) as f:
        cases = json.load(f)
    counts = {}
    failures = 0
    for case in cases:
        for language in case["programs"]:
            if language == "torch" and torch is None:
                print("FAIL torch is not installed (python3-torch)")
                return 1
            try:
                problem = check_case(folder, case, language)
            except Exception as error:  # a generated program that breaks is a failure, not a crash
                problem = "raised %s: %s" % (type(error).__name__, error)
            ran, passed = counts.get(language, (0, 0))
            counts[language] = (ran + 1, passed + (problem is None))
            if problem:
                failures += 1
                print("FAIL %s.%s.py: %s" % (case["name"], language, problem))
    for language, (ran, passed) in sorted(counts.items()):
        print("%s: %d of %d programs equal bit for bit (or refused as they must be)" % (language, passed, ran))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
