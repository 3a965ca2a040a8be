#!/usr/bin/python3
"""Reproduces paper 001's Figs. 2-4 (Park, Chung & Youm, section 4) with routh's spatial laws.

One spatial contact with the paper's H = [[8,-2,1],[-2,3,-1],[1,-1,5]] kg^-1 (rows x, y, z; z is
the normal) strikes at 15 m/s with 32 initial slip directions of 10 m/s. For each friction
coefficient mu (= mu_s = mu_d) one PNG holds a subplot per restitution e: the initial slip
velocities (diamonds) and, per law, the post-impact slip velocities connected in order, so the
loci of Figs. 2-4 can be compared law by law. It also prints, per (mu, e) and law, how many of the
32 directions end sticking (|u_t+| below 1e-9 of the initial slip).

The paper's frame has v_z <= 0 feasible and negative impulses; routh's (docs/design.md §2) has
u_n < 0 approaching and Gamma_n >= 0. With u = (u_n, u_t1, u_t2) = (-v_z, v_x, v_y) and the same
flip on impulses, routh's D is the paper's H with its z row and column moved first and negated
off the diagonal: D = [[5, -1, 1], [-1, 8, -2], [1, -2, 3]].

Usage: tools/paper001_figures.py --routh build/release/tools/routh/routh --out figures/
       [--laws park,sliding_ode,lcp] [--mu 0.01,0.1,0.5,1.0] [--e 0.1,0.5,0.9]
Needs python3-matplotlib; runs headless (Agg backend).
"""

import argparse
import json
import math
import pathlib
import subprocess
import sys
import tempfile

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)

D = [[5.0, -1.0, 1.0], [-1.0, 8.0, -2.0], [1.0, -2.0, 3.0]]
APPROACH_SPEED = 15.0  # m/s
SLIP_SPEED = 10.0  # m/s, beta in the paper
DIRECTIONS = 32
STICK_FRACTION = 1e-9
STYLES = {"park": ("k", "-"), "lcp": ("r", "-."), "sliding_ode": ("b", "--")}


def initial_slip(j):
    angle = 2.0 * math.pi * j / DIRECTIONS
    return SLIP_SPEED * math.cos(angle), SLIP_SPEED * math.sin(angle)


def problem_yaml(slip, mu, e):
    return (
        "name: paper 001 section 4\n"
        f"D: {json.dumps(D)}\n"
        f"u: [{-APPROACH_SPEED!r}, {slip[0]!r}, {slip[1]!r}]\n"
        "dimension: 3\n"
        f"restitution: {e!r}\n"
        f"friction: {mu!r}\n"
    )


def compare(routh, laws, path):
    """The routh compare --json answers for one problem file, by law name."""
    run = subprocess.run(
        [routh, "compare", str(path), "--laws", ",".join(laws), "--json"],
        capture_output=True, text=True, check=False)
    if run.returncode != 0:
        sys.exit(f"paper001_figures: routh compare failed on {path}:\n{run.stderr}")
    return {result["law"]: result for result in json.loads(run.stdout)["results"]}


def final_slips(routh, laws, mu, e, scratch):
    """Per law, the 32 post-impact slip velocities (None where the law did not solve)."""
    slips = {law: [] for law in laws}
    for j in range(DIRECTIONS):
        path = scratch / f"mu{mu}_e{e}_{j}.yaml"
        path.write_text(problem_yaml(initial_slip(j), mu, e))
        answers = compare(routh, laws, path)
        for law in laws:
            answer = answers[law]
            solved = answer["status"] == "solved"
            slips[law].append(tuple(answer["u_post"][1:3]) if solved else None)
    return slips


def plot(mu, es, slips_by_e, laws, out):
    figure, axes = plt.subplots(1, len(es), figsize=(5 * len(es), 5), squeeze=False)
    for axis, e in zip(axes[0], es):
        initial = [initial_slip(j) for j in range(DIRECTIONS)]
        axis.plot(*zip(*initial), "d", color="0.6", label="initial slip")
        for law in laws:
            color, style = STYLES.get(law, ("g", ":"))
            points = [p for p in slips_by_e[e][law] if p is not None]
            if points:
                closed = points + points[:1]
                axis.plot(*zip(*closed), style, color=color, linewidth=2, label=law)
            for start, end in zip(initial, slips_by_e[e][law]):
                if end is not None:
                    axis.plot([start[0], end[0]], [start[1], end[1]], style, color=color,
                              linewidth=0.4)
        axis.set_title(f"mu = {mu}, e = {e}")
        axis.set_xlabel("u_t1 [m/s]")
        axis.set_ylabel("u_t2 [m/s]")
        axis.set_aspect("equal")
        axis.legend(fontsize=8)
    figure.tight_layout()
    path = out / f"paper001_mu{mu}.png"
    figure.savefig(path, dpi=100)
    plt.close(figure)
    return path


def sticking_count(slips):
    return sum(1 for p in slips if p is not None and math.hypot(*p) <= STICK_FRACTION * SLIP_SPEED)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--routh", default="build/release/tools/routh/routh")
    parser.add_argument("--out", default="paper001_figures")
    parser.add_argument("--laws", default="park,sliding_ode,lcp")
    parser.add_argument("--mu", default="0.01,0.1,0.5,1.0")
    parser.add_argument("--e", default="0.1,0.5,0.9")
    args = parser.parse_args()
    laws = args.laws.split(",")
    mus = [float(x) for x in args.mu.split(",")]
    es = [float(x) for x in args.e.split(",")]
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    print("mu e " + " ".join(f"{law}_sticking" for law in laws))
    with tempfile.TemporaryDirectory() as scratch:
        for mu in mus:
            slips_by_e = {e: final_slips(args.routh, laws, mu, e, pathlib.Path(scratch)) for e in es}
            for e in es:
                counts = [str(sticking_count(slips_by_e[e][law])) for law in laws]
                print(f"{mu} {e} " + " ".join(counts))
            print(f"wrote {plot(mu, es, slips_by_e, laws, out)}", file=sys.stderr)


if __name__ == "__main__":
    main()
