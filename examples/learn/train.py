#!/usr/bin/env python3
"""Train a small numpy policy against ``beginner`` bots, plot its learning curve, then measure
it against ``random`` in ``spades arena`` through the bot spec ``py:policy_bot:PolicyBot``.

    pip install -e '.[learn]'
    python examples/learn/train.py            # about 4 minutes of training, then the arena

The policy is linear (logits = W @ observation + b over the 74 actions, illegal ones masked)
and learns by REINFORCE with a running-mean baseline: it holds seat 0 of a ``cardems`` hand,
its partner and both opponents are ``beginner`` bots, and its reward is its side's points for
the hand. Writes ``policy.npz``, ``curve.png``, ``curve.json`` and ``arena.json`` here.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from spades.learn import single_agent_env
from spades.learn.encoding import NUM_ACTIONS, vector_size

HERE = Path(__file__).resolve().parent


def train(minutes: float, seed: int, lr: float, window: int) -> tuple[dict[str, Any], np.ndarray,
                                                                     np.ndarray]:
    env = single_agent_env("cardems", opponents="beginner", partner="beginner")
    rng = np.random.default_rng(seed)
    size = vector_size(4)
    w = np.zeros((NUM_ACTIONS, size))
    b = np.zeros(NUM_ACTIONS)
    # Adam moments.
    mw, vw = np.zeros_like(w), np.zeros_like(w)
    mb, vb = np.zeros_like(b), np.zeros_like(b)
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    baseline = 0.0
    rewards: list[float] = []
    start = time.perf_counter()
    episode = 0
    while time.perf_counter() - start < minutes * 60:
        obs, _ = env.reset(seed=seed * 1_000_003 + episode)
        xs, ps, acts = [], [], []
        total = 0.0
        while True:
            x = obs["observation"].astype(np.float64)
            z = w @ x + b
            z = np.where(obs["action_mask"] > 0, z, -np.inf)
            p = np.exp(z - z.max())
            p /= p.sum()
            a = int(rng.choice(NUM_ACTIONS, p=p))
            xs.append(x)
            ps.append(p)
            acts.append(a)
            obs, reward, terminated, truncated, _ = env.step(a)
            total += float(reward)
            if terminated or truncated:
                break
        episode += 1
        rewards.append(total)
        advantage = total / 100.0 - baseline
        baseline += 0.01 * (total / 100.0 - baseline)
        gw = np.zeros_like(w)
        gb = np.zeros_like(b)
        for x, p, a in zip(xs, ps, acts, strict=True):
            g = -p
            g[a] += 1.0
            gw += np.outer(g, x)
            gb += g
        gw *= advantage
        gb *= advantage
        t = episode
        mw = beta1 * mw + (1 - beta1) * gw
        vw = beta2 * vw + (1 - beta2) * gw * gw
        mb = beta1 * mb + (1 - beta1) * gb
        vb = beta2 * vb + (1 - beta2) * gb * gb
        w += lr * (mw / (1 - beta1**t)) / (np.sqrt(vw / (1 - beta2**t)) + eps)
        b += lr * (mb / (1 - beta1**t)) / (np.sqrt(vb / (1 - beta2**t)) + eps)
        if episode % 500 == 0:
            recent = np.mean(rewards[-window:])
            print(f"episode {episode}: mean points per hand over the last {window}: "
                  f"{recent:+.1f} ({time.perf_counter() - start:.0f} s)", flush=True)
    elapsed = time.perf_counter() - start
    curve = [float(np.mean(rewards[max(0, i - window):i]))
             for i in range(window, len(rewards) + 1, max(1, window // 4))]
    info = {"episodes": episode, "seconds": round(elapsed, 1), "window": window,
            "curve_every": max(1, window // 4), "curve": [round(c, 2) for c in curve],
            "first_window_mean": round(float(np.mean(rewards[:window])), 2),
            "last_window_mean": round(float(np.mean(rewards[-window:])), 2),
            "lr": lr, "seed": seed}
    return info, w, b


def plot(info: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    every = info["curve_every"]
    xs = [info["window"] + i * every for i in range(len(info["curve"]))]
    fig, ax = plt.subplots(figsize=(7, 4), dpi=100)
    ax.plot(xs, info["curve"], color="#1f5fa8")
    ax.axhline(0, color="#888", linewidth=0.8)
    ax.set_xlabel("hands played (training)")
    ax.set_ylabel(f"side's points per hand (mean of last {info['window']})")
    ax.set_title("Linear policy (REINFORCE) with a beginner partner vs two beginners, cardems")
    ax.title.set_fontsize(10)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def arena(deals: int, seed: int) -> dict[str, Any]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(HERE), env.get("PYTHONPATH")]))
    cmd = [sys.executable, "-m", "spades", "arena", "--a", "py:policy_bot:PolicyBot",
           "--b", "random", "--deals", str(deals), "--seed", str(seed), "--json", "--quiet"]
    print("$", " ".join(cmd[2:]).replace("-m spades", "spades"), flush=True)
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    print(out.stdout, end="")
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--minutes", type=float, default=4.0, help="training time (default 4)")
    p.add_argument("--seed", type=int, default=1, help="seed of training and arena (default 1)")
    p.add_argument("--lr", type=float, default=0.003, help="Adam step size (default 0.003)")
    p.add_argument("--window", type=int, default=200, help="hands per curve point (default 200)")
    p.add_argument("--deals", type=int, default=300, help="arena deals (default 300)")
    p.add_argument("--out", type=Path, default=HERE, help="where to write (default: here)")
    args = p.parse_args(argv)
    info, w, b = train(args.minutes, args.seed, args.lr, args.window)
    args.out.mkdir(parents=True, exist_ok=True)
    np.savez(args.out / "policy.npz", W=w, b=b)
    plot(info, args.out / "curve.png")
    (args.out / "curve.json").write_text(json.dumps(info) + "\n", encoding="utf-8")
    print(f"trained on {info['episodes']} hands in {info['seconds']} s: points per hand "
          f"{info['first_window_mean']:+.1f} (first {args.window}) -> "
          f"{info['last_window_mean']:+.1f} (last {args.window}); wrote curve.png", flush=True)
    os.environ["SPADES_POLICY"] = str(args.out / "policy.npz")
    result = arena(args.deals, args.seed)
    (args.out / "arena.json").write_text(json.dumps(result) + "\n", encoding="utf-8")
    low, high = result["ci95"]
    verdict = "above zero" if low > 0 else "NOT above zero"
    print(f"policy minus random: {result['mean']:+.1f} points per deal, 95% interval "
          f"[{low:+.1f}, {high:+.1f}]: {verdict}")
    return 0 if low > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
