#!/usr/bin/env python3
"""The README's benchmark workloads in NumPy and PyTorch, beside a NumPy copy of the same bytes.

Not part of CI. Reproduces the comparison stridescope-bench makes for the fast
CPU backend: every workload is timed back to back with a copy of the same
number of bytes, (bytes read + bytes written) / 2 as in bench/cpu_workloads.cpp,
and reported as a ratio of medians (x_copy), next to the ratio of minimums
(x_best), which a busy machine disturbs less.

    python3 bench/peers.py            # all workloads
    python3 bench/peers.py --quick    # fewer repetitions

Needs NumPy, and PyTorch for the torch rows (Debian: apt install python3-numpy
python3-torch). Runs whatever of the two is importable.
"""

import argparse
import statistics
import sys
import time

try:
    import numpy as np
except ImportError:  # pragma: no cover - depends on the machine
    np = None
try:
    import torch
    import torch.nn.functional as F
except ImportError:  # pragma: no cover - depends on the machine
    torch = None

W1 = (1, 32, 512, 512)
W1_PAD = ((0, 0), (0, 0), (3, 7), (5, 2))  # start (0,0,3,5), end (0,0,7,2)
TORCH_PAD = (5, 2, 3, 7)                   # F.pad order: last dim first
W2 = (1, 64, 224, 224)
W2_SMALL = (1, 64, 112, 112)
W3 = (1, 1, 4096, 4096)
W5_NCHW = (1, 64, 512, 512)      # the NHWC <-> NCHW layout changes
W5_RGB_NHWC = (1, 1080, 1920, 3)  # an RGB image stored channels-last, made planar
W5_SQUARE = (4096, 4096)         # a 2-D transpose


def timed(fn, copy_bytes, repeats):
    """Medians and minimums of fn() and of a copy of copy_bytes, interleaved."""
    src = np.ones(copy_bytes, dtype=np.uint8)
    dst = np.empty_like(src)
    np.copyto(dst, src)
    fn()  # warm: allocator, page tables, threads
    op_times, copy_times = [], []
    for _ in range(repeats):
        t0 = time.perf_counter()
        np.copyto(dst, src)
        t1 = time.perf_counter()
        fn()
        t2 = time.perf_counter()
        copy_times.append(t1 - t0)
        op_times.append(t2 - t1)
    return (statistics.median(op_times), statistics.median(copy_times), min(op_times), min(copy_times))


def report(name, fn, read_bytes, written_bytes, repeats):
    copy_bytes = (read_bytes + written_bytes) // 2
    op, copy, op_best, copy_best = timed(fn, copy_bytes, repeats)
    print(f"{name:<44} {op * 1e3:9.3f} ms  copy {copy * 1e3:7.3f} ms  "
          f"x_copy {op / copy:6.2f}  x_best {op_best / copy_best:6.2f}")


def numpy_rows(repeats):
    rng = np.random.default_rng(42)
    for dtype, suffix in ((np.float32, "f32"), (np.float16, "f16"), (np.int8, "i8"), (np.int64, "i64")):
        x = (rng.standard_normal(W1) * 50).astype(dtype)
        out_bytes = np.pad(x, W1_PAD, mode="constant").nbytes
        modes = ("constant", "edge", "reflect", "symmetric") if suffix == "f32" else ("reflect", "constant")
        for mode in modes:
            report(f"numpy W1_padding_{mode}_{suffix}", lambda m=mode: np.pad(x, W1_PAD, mode=m),
                   x.nbytes, out_bytes, repeats)
        # W3: rows stride -2, cols stride 2, as a copy (slicing alone is a view).
        y = (rng.standard_normal(W3) * 50).astype(dtype)
        sliced = y[:, :, ::-2, ::2]
        report(f"numpy W3_slice1_rows_-2_cols_2_{suffix}", lambda s=sliced: np.ascontiguousarray(s),
               sliced.nbytes, sliced.nbytes, repeats)
    # W4: a broadcast input (channel stride 0).
    plane = rng.standard_normal((1, 1, 512, 512)).astype(np.float32)
    broadcast = np.broadcast_to(plane, W1)
    out_bytes = np.pad(broadcast, W1_PAD, mode="reflect").nbytes
    report("numpy W4_padding_reflection_broadcast_f32", lambda: np.pad(broadcast, W1_PAD, mode="reflect"),
           plane.nbytes, out_bytes, repeats)
    # W5: identities that change the layout (a transposed copy).
    nchw = rng.standard_normal(W5_NCHW).astype(np.float32)
    nhwc = np.ascontiguousarray(nchw.transpose(0, 2, 3, 1))
    rgb = rng.integers(0, 256, W5_RGB_NHWC, dtype=np.uint8)
    square = rng.standard_normal(W5_SQUARE).astype(np.float32)
    for name, x, axes in (("W5_layout_nhwc_to_nchw_f32", nhwc, (0, 3, 1, 2)),
                          ("W5_layout_nchw_to_nhwc_f32", nchw, (0, 2, 3, 1)),
                          ("W5_layout_rgb_nhwc_to_planar_u8", rgb, (0, 3, 1, 2)),
                          ("W5_layout_transpose_4096_f32", square, (1, 0))):
        report(f"numpy {name}", lambda x=x, a=axes: np.ascontiguousarray(x.transpose(a)), x.nbytes, x.nbytes, repeats)


def torch_rows(repeats):
    torch.manual_seed(42)
    modes = {"constant": "constant", "edge": "replicate", "reflection": "reflect"}
    x = torch.randn(W1, dtype=torch.float32)
    out_bytes = F.pad(x, TORCH_PAD).numel() * 4
    for name, mode in modes.items():
        report(f"torch W1_padding_{name}_f32", lambda m=mode: F.pad(x, TORCH_PAD, mode=m),
               x.numel() * 4, out_bytes, repeats)
    for dtype, suffix in ((torch.float16, "f16"), (torch.int8, "i8"), (torch.int64, "i64")):
        y = (torch.randn(W1) * 50).to(dtype)
        size = y.element_size()
        report(f"torch W1_padding_constant_{suffix}", lambda t=y: F.pad(t, TORCH_PAD),
               y.numel() * size, F.pad(y, TORCH_PAD).numel() * size, repeats)

    def max_pool(t, window, stride, pad, dilation):
        # PyTorch refuses padding over half the (undilated) window ("pad should
        # be at most half of kernel size"); DirectML allows any. Padding with
        # -inf first and pooling unpadded is the exact equivalent (a padded tap
        # never wins), and it is timed too, as a PyTorch user would have to.
        if 2 * pad > window:
            t = F.pad(t, (pad, pad, pad, pad), value=float("-inf"))
            pad = 0
        return F.max_pool2d(t, window, stride, pad, dilation, return_indices=True)

    def pool(shape, window, stride, pad, dilation, dtype=torch.float32):
        t = torch.randn(shape).to(dtype)
        out, idx = max_pool(t, window, stride, pad, dilation)
        written = out.numel() * out.element_size() + idx.numel() * 4  # UINT32 indices, as StrideScope's
        return t, written

    for name, shape, window, stride, pad, dilation in (
            ("W2_max_pooling_3x3_s2_p1_f32", W2, 3, 2, 1, 1),
            ("W2_max_pooling_2x2_s2_f32", W2_SMALL, 2, 2, 0, 1),
            ("W2_max_pooling_3x3_s2_p2_d2_f32", W2, 3, 2, 2, 2)):
        t, written = pool(shape, window, stride, pad, dilation)
        report(f"torch {name}",
               lambda t=t, w=window, s=stride, p=pad, d=dilation: max_pool(t, w, s, p, d),
               t.numel() * 4, written, repeats)
    # PyTorch pools floating types only; FLOAT16 where the CPU kernel exists.
    try:
        t, written = pool(W2, 3, 2, 1, 1, torch.float16)
        report("torch W2_max_pooling_3x3_s2_p1_f16", lambda: F.max_pool2d(t, 3, 2, 1, 1, return_indices=True),
               t.numel() * 2, written, repeats)
    except RuntimeError as error:
        print(f"torch W2_max_pooling_3x3_s2_p1_f16: not available ({error})")
    # W5: layout changes. channels_last <-> contiguous is what PyTorch users
    # write for NHWC <-> NCHW; the RGB image and the square go through permute.
    nchw = torch.randn(W5_NCHW)
    nhwc = nchw.contiguous(memory_format=torch.channels_last)
    rgb = torch.randint(0, 256, W5_RGB_NHWC, dtype=torch.uint8)
    square = torch.randn(W5_SQUARE)
    for name, fn, nbytes in (
            ("W5_layout_nhwc_to_nchw_f32", lambda: nhwc.contiguous(), nhwc.numel() * 4),
            ("W5_layout_nchw_to_nhwc_f32", lambda: nchw.contiguous(memory_format=torch.channels_last),
             nchw.numel() * 4),
            ("W5_layout_rgb_nhwc_to_planar_u8", lambda: rgb.permute(0, 3, 1, 2).contiguous(), rgb.numel()),
            ("W5_layout_transpose_4096_f32", lambda: square.t().contiguous(), square.numel() * 4)):
        report(f"torch {name}", fn, nbytes, nbytes, repeats)
    # W3 through flip + slice, made contiguous (torch slicing takes no negative step).
    y = torch.randn(W3)
    sliced_bytes = torch.flip(y, dims=[2])[:, :, ::2, ::2].contiguous().numel() * 4
    report("torch W3_slice1_rows_-2_cols_2_f32", lambda: torch.flip(y, dims=[2])[:, :, ::2, ::2].contiguous(),
           sliced_bytes, sliced_bytes, repeats)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    args = parser.parse_args()
    if np is None:
        print("bench/peers.py needs NumPy (and PyTorch for the torch rows):\n"
              "  sudo apt install python3-numpy python3-torch     # Debian 12\n"
              "  or: python3 -m pip install numpy torch")
        return 0
    repeats = 7 if args.quick else 25
    print(f"numpy {np.__version__}" + (f", torch {torch.__version__} ({torch.get_num_threads()} threads)"
                                       if torch is not None else ", torch not installed"))
    print(f"{'workload':<44} {'median':>12}  {'copy of the same bytes':>18}")
    numpy_rows(repeats)
    if torch is not None:
        torch_rows(repeats)
    return 0


if __name__ == "__main__":
    sys.exit(main())
