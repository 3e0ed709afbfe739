#!/usr/bin/env python3
"""Compare gnn_layer's output with PyTorch Geometric's GCNConv on the same graph and weights.

    gnn_layer --gen karate --layers 1 --in 16 --out 8 --dump karate_dump
    python3 pyg_compare.py karate_dump

Reads what `gnn_layer --dump DIR` wrote (edges.txt: "src dst weight" 0-based, in the app's node
order after reordering; features.txt; weightL.txt (in x out) and biasL.txt per layer; output.txt,
the app's f16/bf16 result as numbers; meta.txt: normalize, add_self_loops, improved, dtype),
builds the same stack of torch_geometric.nn.GCNConv layers (ReLU between layers, none after the
last) in float64 on the CPU (or the GPU with --device cuda), and prints the relative error
||app - pyg|| / ||pyg||. Exit codes: 0 within the app's bound for its dtype (f16 3e-3, bf16 2e-2),
1 outside it, 2 bad input, 3 torch or torch_geometric not installed.
"""
import argparse
import os
import sys

BOUNDS = {"f16": 3e-3, "bf16": 2e-2}  # gnn_runner.hpp, output_tolerance


def read_meta(path):
    meta = {}
    with open(path) as f:
        for line in f:
            key, value = line.split()
            meta[key] = value
    return meta


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dump_dir", help="the directory gnn_layer --dump wrote")
    parser.add_argument("--device", default="cpu", help="torch device for the PyG run (default cpu)")
    args = parser.parse_args()

    try:
        import numpy as np
        import torch
    except ImportError as e:
        print(f"pyg_compare: torch / numpy is not installed ({e}); nothing compared", file=sys.stderr)
        return 3
    try:
        from torch_geometric.nn import GCNConv
    except ImportError as e:
        print(f"pyg_compare: torch_geometric is not installed ({e}); nothing compared. "
              "Install it with: pip install torch_geometric", file=sys.stderr)
        return 3

    d = args.dump_dir
    try:
        meta = read_meta(os.path.join(d, "meta.txt"))
        nodes = int(meta["nodes"])
        layers = int(meta["layers"])
        edges = np.loadtxt(os.path.join(d, "edges.txt"), comments="#", ndmin=2)
        x = np.loadtxt(os.path.join(d, "features.txt"), ndmin=2)
        app_out = np.loadtxt(os.path.join(d, "output.txt"), ndmin=2)
        weights = [np.loadtxt(os.path.join(d, f"weight{l}.txt"), ndmin=2) for l in range(layers)]
        biases = [np.loadtxt(os.path.join(d, f"bias{l}.txt"), ndmin=1) for l in range(layers)]
    except (OSError, KeyError, ValueError) as e:
        print(f"pyg_compare: cannot read the dump in {d}: {e}", file=sys.stderr)
        return 2

    dev = torch.device(args.device)
    f64 = torch.float64
    if edges.size == 0:
        edge_index = torch.zeros((2, 0), dtype=torch.long, device=dev)
        edge_weight = torch.zeros((0,), dtype=f64, device=dev)
    else:
        # Row 0 = source, row 1 = target: PyG's flow="source_to_target", the app's convention.
        edge_index = torch.tensor(edges[:, :2].T.astype(np.int64), device=dev)
        edge_weight = torch.tensor(edges[:, 2], dtype=f64, device=dev)
    h = torch.tensor(x, dtype=f64, device=dev)
    assert h.shape[0] == nodes, f"features have {h.shape[0]} rows for {nodes} nodes"

    normalize = meta["normalize"] == "1"
    # GCNConv adds loops only inside its normalisation, and PyG >= 2.3 refuses
    # add_self_loops=True with normalize=False: pass what actually happens.
    add_self_loops = meta["add_self_loops"] == "1" and normalize
    improved = meta["improved"] == "1"
    with torch.no_grad():
        for l in range(layers):
            w = torch.tensor(weights[l], dtype=f64, device=dev)  # in x out
            b = torch.tensor(biases[l], dtype=f64, device=dev)
            conv = GCNConv(w.shape[0], w.shape[1], improved=improved, add_self_loops=add_self_loops,
                           normalize=normalize, bias=True).to(device=dev, dtype=f64)
            if hasattr(conv, "lin"):   # PyG >= 2.0: a Linear layer, weight stored out x in
                conv.lin.weight.copy_(w.T)
            else:                      # older PyG: weight stored in x out
                conv.weight.copy_(w)
            conv.bias.copy_(b)
            h = conv(h, edge_index, edge_weight)
            if l + 1 < layers:
                h = torch.relu(h)
    ref = h.cpu().numpy()
    if ref.shape != app_out.shape:
        print(f"pyg_compare: shapes differ: app {app_out.shape}, PyG {ref.shape}", file=sys.stderr)
        return 1
    denom = np.linalg.norm(ref)
    err = np.linalg.norm(app_out - ref) / denom if denom > 0 else np.linalg.norm(app_out)
    bound = BOUNDS.get(meta.get("dtype", "f16"), 3e-3)
    import torch_geometric
    print(f"pyg_compare: {nodes} nodes, {edge_index.shape[1]} edges, {layers} GCNConv layer(s), "
          f"torch_geometric {torch_geometric.__version__}, torch {torch.__version__}: "
          f"relative error of the app's {meta.get('dtype')} output vs PyG float64 = {err:.3e} (bound {bound:g}): "
          f"{'OK' if err <= bound else 'OUTSIDE THE BOUND'}")
    return 0 if err <= bound else 1


if __name__ == "__main__":
    sys.exit(main())
