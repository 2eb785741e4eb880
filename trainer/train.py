#!/usr/bin/env python3
"""Trains pasang's network (NNUE) on a packed datagen file and writes the
quantized file the engine loads (`EvalFile`, or src/eval/pasang.nnue to
embed it). A tool beside the engine: the engine never needs Python.

    python3 trainer/train.py --data data.bin --out pasang.nnue [--epochs N]
                             [--hidden 256] [--lambda 0.3] [--seed 1]
                             [--max-seconds S] [--device cuda|cpu]

The data is `pasang datagen --merge`'s packed file (docs/datagen.md). The
network (docs/strength.md): per view 484 inputs, the white and the black
stones and the view's own and the other ka, each x 121 points, North's
view turned a half-turn; one hidden layer shared by both views, clipped
ReLU, the side to move's half first, one output. The evaluation is
100 x (points margin so far) + output x SCALE centipoints; the target of
each position is LAMBDA x result + (1 - LAMBDA) x sigmoid(score / K).
"""
import argparse
import math
import struct
import sys
import time

import numpy as np
import torch

POINTS = 121
INPUTS = 4 * POINTS
QA, QB = 255, 1024
SCALE = 400  # centipoints per unit of the network's output
K = 400.0  # centipoints per unit of log-odds (sigmoid(score / K))


def load(path):
    """The packed file's records as a numpy structured array, read by the
    project's Python module (`pip install ./python`: pasang.learn), with a
    `stones` view of the two colours' bits side by side, as views() takes
    them."""
    try:
        from pasang.learn import read_packed_records
    except ImportError:
        sys.exit("train.py reads its data with the pasang module: pip install ./python")
    try:
        data = read_packed_records(path)
    except ValueError as error:
        sys.exit(str(error))
    return data, np.concatenate([data["white"], data["black"]], axis=1)


def views(stones, ka, side):
    """Dense inputs of both views, side to move first, on stones' device.
    stones: uint8 [B, 32] (white u128 then black u128, little-endian bits),
    ka: long [B, 2] (South's, North's square), side: long [B] (0 South)."""
    shifts = torch.arange(8, device=stones.device, dtype=torch.uint8)
    bits = ((stones.unsqueeze(-1) >> shifts) & 1).reshape(-1, 256).float()
    white, black = bits[:, :POINTS], bits[:, 128:128 + POINTS]
    rows = torch.arange(len(side), device=stones.device)
    kas = []
    for player in range(2):
        onehot = torch.zeros(len(side), POINTS, device=stones.device)
        onehot[rows, ka[:, player].clamp(max=POINTS - 1)] = 1.0
        kas.append(onehot)
    south = torch.cat([white, black, kas[0], kas[1]], 1)
    north = torch.cat([white.flip(1), black.flip(1), kas[1].flip(1), kas[0].flip(1)], 1)
    is_north = (side == 1).unsqueeze(1)
    return torch.where(is_north, north, south), torch.where(is_north, south, north)


class Net(torch.nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.ft = torch.nn.Linear(INPUTS, hidden)
        self.out = torch.nn.Linear(2 * hidden, 1)
        torch.nn.init.normal_(self.ft.weight, std=0.05)
        torch.nn.init.zeros_(self.ft.bias)
        torch.nn.init.normal_(self.out.weight, std=0.02)
        torch.nn.init.zeros_(self.out.bias)

    def forward(self, us, them):
        a = torch.clamp(self.ft(us), 0.0, 1.0)
        b = torch.clamp(self.ft(them), 0.0, 1.0)
        return self.out(torch.cat([a, b], 1)).squeeze(1)

    def clip(self):
        # What the quantization can hold: int16 accumulators of up to
        # ~120 active inputs (|w| <= 1 -> 255 each), int16 output weights.
        with torch.no_grad():
            self.ft.weight.clamp_(-1.0, 1.0)
            self.ft.bias.clamp_(-1.0, 1.0)
            self.out.weight.clamp_(-2.0, 2.0)


def batch(tensors, index, lam, device):
    stones, ka, side, points, score, result = (t[index] for t in tensors)
    us, them = views(stones, ka, side)
    offset = 100.0 * points  # the margin already taken, centipoints
    target = lam * result + (1 - lam) * torch.sigmoid(score / K)
    return us, them, offset, target


def loss_of(net, us, them, offset, target):
    cp = offset + SCALE * net(us, them)
    return torch.mean((torch.sigmoid(cp / K) - target) ** 2)


def export(net, path, hidden):
    w1 = torch.round(net.ft.weight.detach().cpu().T * QA).to(torch.int16).numpy()
    b1 = torch.round(net.ft.bias.detach().cpu() * QA).to(torch.int16).numpy()
    w2 = torch.round(net.out.weight.detach().cpu()[0] * QB).to(torch.int16).numpy()
    b2 = int(round(float(net.out.bias.detach().cpu()[0]) * QA * QB))
    with open(path, "wb") as f:
        f.write(struct.pack("<8sIIIIII", b"PSNGNNUE", 1, INPUTS, hidden, QA, QB, SCALE))
        f.write(w1.astype("<i2").tobytes())
        f.write(b1.astype("<i2").tobytes())
        f.write(w2.astype("<i2").tobytes())
        f.write(struct.pack("<i", b2))
    return w1, b1, w2, b2


def quantized_cp(q, us, them):
    """The engine's integer inference (numpy), network part in centipoints."""
    w1, b1, w2, b2 = q
    hidden = len(b1)
    acc_us = np.clip(us.astype(np.int32) @ w1.astype(np.int32) + b1, 0, QA)
    acc_them = np.clip(them.astype(np.int32) @ w1.astype(np.int32) + b1, 0, QA)
    total = acc_us @ w2[:hidden].astype(np.int64) + acc_them @ w2[hidden:].astype(np.int64) + b2
    return total * SCALE // (QA * QB)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--data", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--hidden", type=int, default=256)
    p.add_argument("--epochs", type=int, default=30, help="at most this many passes")
    p.add_argument("--batch", type=int, default=16384)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--lambda", dest="lam", type=float, default=0.3)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--held-out", type=float, default=0.01)
    p.add_argument("--max-seconds", type=float, default=1e9,
                   help="stop after the epoch that passes this; the learning rate decays over it")
    p.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = p.parse_args()
    torch.manual_seed(args.seed)
    start = time.time()
    data, stones = load(args.data)
    both = (data["ka"][:, 0] != 255) & (data["ka"][:, 1] != 255)
    data, stones = data[both], stones[both]  # the engine asks the network once both kas are in
    side = data["side"].astype(np.int64)
    own = data["points"][np.arange(len(data)), side].astype(np.float32)
    other = data["points"][np.arange(len(data)), 1 - side].astype(np.float32)
    dev = torch.device(args.device)
    tensors = [
        torch.from_numpy(np.ascontiguousarray(stones)).to(dev),
        torch.from_numpy(data["ka"].astype(np.int64)).to(dev),
        torch.from_numpy(side).to(dev),
        torch.from_numpy(own - other).to(dev),
        torch.from_numpy(data["score"].astype(np.float32)).to(dev),
        torch.from_numpy(data["result"].astype(np.float32) / 2).to(dev),
    ]
    n = len(data)
    held = max(1, int(n * args.held_out))
    train_n = n - held
    print(f"data {args.data}: {n} positions with both kas in ({train_n} train, {held} held out), "
          f"device {dev}, hidden {args.hidden}, lambda {args.lam}, K {K}, seed {args.seed}, "
          f"loaded in {time.time() - start:.1f} s", flush=True)
    held_index = torch.arange(train_n, n, device=dev)
    net = Net(args.hidden).to(dev)
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    timed = args.max_seconds < 1e9

    def set_lr(fraction):
        # Cosine decay over the epochs, or over the time budget if one is given.
        lr = args.lr * 0.5 * (1 + math.cos(math.pi * min(1.0, fraction)))
        for group in opt.param_groups:
            group["lr"] = lr
        return lr

    def held_loss():
        with torch.no_grad():
            total = 0.0
            for i in range(0, held, 65536):
                idx = held_index[i:i + 65536]
                total += float(loss_of(net, *batch(tensors, idx, args.lam, dev))) * len(idx)
            return total / held

    print(f"epoch 0 held-out loss {held_loss():.6f}", flush=True)
    train_start = time.time()
    for epoch in range(1, args.epochs + 1):
        perm = torch.randperm(train_n, device=dev)
        total, steps = 0.0, 0
        for i in range(0, train_n, args.batch):
            us, them, offset, target = batch(tensors, perm[i:i + args.batch], args.lam, dev)
            loss = loss_of(net, us, them, offset, target)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            net.clip()
            total += float(loss.detach()) if steps % 50 == 0 else 0.0
            steps += 1
        elapsed = time.time() - train_start
        lr = set_lr(elapsed / args.max_seconds if timed else epoch / args.epochs)
        print(f"epoch {epoch} train loss {total / max(1, math.ceil(steps / 50)):.6f} "
              f"held-out loss {held_loss():.6f} next lr {lr:.2e} "
              f"{elapsed:.1f} s", flush=True)
        if elapsed > args.max_seconds * 0.97:
            print(f"stopping: {args.max_seconds} s reached", flush=True)
            break
    q = export(net, args.out, args.hidden)
    # Quantized against float inference on held-out positions.
    idx = held_index[:4096]
    us, them, offset, _ = batch(tensors, idx, args.lam, dev)
    with torch.no_grad():
        float_cp = (SCALE * net(us, them)).cpu().numpy()
    int_cp = quantized_cp(q, us.cpu().numpy().astype(np.int64), them.cpu().numpy().astype(np.int64))
    diff = np.abs(int_cp - float_cp)
    print(f"wrote {args.out}: quantized vs float on {len(idx)} held-out positions: "
          f"mean |diff| {diff.mean():.2f} cp, max {diff.max():.2f} cp; "
          f"network cp mean |{np.abs(float_cp).mean():.1f}|", flush=True)


if __name__ == "__main__":
    main()
