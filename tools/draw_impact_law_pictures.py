"""Draws the pictures of docs/impact_laws_explained.md: one impact under four impact laws.

Two impacts, each solved by routh itself (routh.compare) under the conventional method
(`newton`) and Routh's incremental method with Newton's, Poisson's and Stronge's restitution
(`newton_routh`, `poisson`, `energetic`):

- a spinning ball striking the floor at an angle (a uniform sphere of 0.5 kg and radius 0.1 m,
  moving at (1.5, −2) m/s with 20 rad/s of backspin, e = 0.7, μ = 0.3);
- the falling rod of Elkaranshawy & Bajaba (scenarios/impacts/falling_rod_paper004.yaml: a
  uniform rod at 45°, its lower end striking with e = 0.82, μs = 0.73, μd = 0.7).

For each it writes one SVG with, per law, the body before (grey) and after (colour) the impact,
and below: the impulse path (tangential against normal impulse, with the friction cone), the
contact velocities along the path, and the energy (the works of the normal and tangential
impulses and the change of kinetic energy). The path is rebuilt from each law's phase trace
(slide: friction at its kinetic bound against the slip; stick: the impulse that keeps the slip
at zero, dΓ_t/dΓ_n = −D_tn / D_tt) and checked against the impulse the law reports; the
conventional method applies one impulse in one direction, a straight line.

Usage (PYTHONPATH at the build's python folder, a python with numpy, matplotlib and PyYAML):

    /usr/bin/python3 tools/draw_impact_law_pictures.py [-o docs]

It prints the numbers the page quotes.
"""

import argparse
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import yaml  # noqa: E402

import routh  # noqa: E402

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LAWS = [
    ("newton", "conventional method\n(newton)", "#d62728"),
    ("newton_routh", "Routh + Newton\n(newton_routh)", "#ff7f0e"),
    ("poisson", "Routh + Poisson\n(poisson)", "#1f77b4"),
    ("energetic", "Routh + Stronge\n(energetic)", "#2ca02c"),
]
PRE_COLOUR = "#888888"

BALL_MASS, BALL_RADIUS = 0.5, 0.1  # [kg], [m]
BALL_INERTIA = 0.4 * BALL_MASS * BALL_RADIUS**2  # a uniform sphere [kg m²]
BALL = {
    "name": "a spinning ball strikes the floor",
    # v = (ẋ, ẏ, ω) of the centre; contact rows: normal (ẏ of the lowest point), tangential (its ẋ)
    "M": np.diag([BALL_MASS, BALL_MASS, BALL_INERTIA]),
    "J": np.array([[0.0, 1.0, 0.0], [1.0, 0.0, BALL_RADIUS]]),
    "v": np.array([1.5, -2.0, 20.0]),
    "restitution": 0.7,
    "friction": {"static": 0.3, "kinetic": 0.3},
}


def falling_rod():
    """The falling rod's problem, as scenarios/impacts/falling_rod_paper004.yaml gives it."""
    path = os.path.join(REPOSITORY, "scenarios", "impacts", "falling_rod_paper004.yaml")
    with open(path, encoding="utf-8") as file:
        problem = yaml.safe_load(file)
    return {"name": "the falling rod strikes the floor (Elkaranshawy & Bajaba)", "file": path,
            "M": np.array(problem["M"], dtype=float), "J": np.array(problem["J"], dtype=float),
            "v": np.array(problem["v"], dtype=float), "restitution": problem["restitution"],
            "friction": problem["friction"]}


def solve(problem):
    """Every law's answer (routh.compare), with D and u⁻ of the problem."""
    if "file" in problem:
        answer = routh.compare(problem["file"], laws=[law for law, _, _ in LAWS])
    else:
        answer = routh.compare({key: problem[key] for key in ("M", "J", "v", "restitution",
                                                              "friction")},
                               laws=[law for law, _, _ in LAWS])
    results = {result["law"]: result for result in answer["results"]}
    D = problem["J"] @ np.linalg.solve(problem["M"], problem["J"].T)
    u = problem["J"] @ problem["v"]
    return results, D, u


def impulse_path(result, D, u_pre, kinetic_friction):
    """The impulse (Γ_n, Γ_t) at each phase boundary of a law's trace, from (0, 0)."""
    if result["law"] == "newton":  # one impulse, one direction, for the whole impact
        return np.array([[0.0, 0.0], result["impulse"]])
    points = [np.zeros(2)]
    for phase in result["phases"]:
        start = points[-1]
        slip = (u_pre + D @ start)[1]
        if phase["kind"] == "stick":
            slope = -D[1, 0] / D[1, 1]
        else:  # friction at its kinetic bound against the slip (or, from rest, the slip to come)
            direction = np.sign(slip) if abs(slip) > 1e-12 else np.sign(D[1, 0])
            slope = -kinetic_friction * direction
        step = phase["to"] - phase["from"]
        points.append(start + np.array([step, slope * step]))
    path = np.array(points)
    if not np.allclose(path[-1], result["impulse"], rtol=1e-6, atol=1e-9):
        raise RuntimeError(f"{result['law']}: the phases lead to {path[-1]}, the law reports "
                           f"{result['impulse']}")
    return path


def draw_ball(axes):
    axes.add_patch(plt.Circle((0, BALL_RADIUS), BALL_RADIUS, facecolor="#eeeeee",
                              edgecolor="black", linewidth=1.5))
    axes.plot([0, BALL_RADIUS * np.cos(np.pi / 4)],
              [BALL_RADIUS, BALL_RADIUS * (1 + np.sin(np.pi / 4))], color="black", linewidth=1)
    return (0.0, BALL_RADIUS)


def draw_rod(axes):
    ends = np.array([[0.0, 0.0], [np.cos(np.pi / 4), np.sin(np.pi / 4)]])
    axes.plot(ends[:, 0], ends[:, 1], color="black", linewidth=4, solid_capstyle="round")
    axes.plot(*ends[0], marker="o", color="black", markersize=5)
    return tuple(ends.mean(axis=0))


def velocity_arrow(axes, origin, velocity, scale, colour, style):
    axes.annotate("", xy=(origin[0] + scale * velocity[0], origin[1] + scale * velocity[1]),
                  xytext=origin, arrowprops={"arrowstyle": "-|>", "color": colour,
                                             "linewidth": 2.2, "linestyle": style,
                                             "shrinkA": 0, "shrinkB": 0})


def draw_bodies(figure, grid, problem, results, draw_body, scale, extent):
    v_pre = problem["v"]
    for column, (law, label, colour) in enumerate(LAWS):
        axes = figure.add_subplot(grid[0, column])
        result = results[law]
        v_post = result["v_post"]
        centre = draw_body(axes)
        axes.axhline(0, color="#555555", linewidth=2)
        axes.fill_between(extent[0], -0.08 * (extent[1][1] - extent[1][0]), 0, color="#dddddd")
        velocity_arrow(axes, centre, v_pre, scale, PRE_COLOUR, "--")
        velocity_arrow(axes, centre, v_post, scale, colour, "-")
        axes.set_xlim(*extent[0])
        axes.set_ylim(*extent[1])
        axes.set_aspect("equal")
        axes.set_xticks([])
        axes.set_yticks([])
        axes.set_title(label, fontsize=10, color=colour)
        flags = ",\n".join(result["flags"]) or "no flag"
        axes.set_xlabel(f"v⁺ = ({v_post[0]:.3f}, {v_post[1]:.3f}) m/s\n"
                        f"ω⁺ = {v_post[2]:.3f} rad/s\nΔT = {result['delta_T']:.4f} J\n{flags}",
                        fontsize=8, family="monospace", loc="left")
    figure.text(0.5, 0.905, f"before the impact (grey, dashed): v⁻ = ({v_pre[0]:g}, "
                f"{v_pre[1]:g}) m/s, ω⁻ = {v_pre[2]:g} rad/s; after it (colour): the centre's "
                "velocity v⁺ and the spin ω⁺ (counter-clockwise positive)", ha="center",
                fontsize=9, color="#444444")


def draw_paths(axes, results, D, u_pre, friction):
    kinetic = friction["kinetic"] if isinstance(friction, dict) else friction
    widths = [6, 4.5, 3, 1.5]
    largest = max(result["impulse"][0] for result in results.values())
    cone = np.array([0, 1.1 * largest])
    axes.fill_between(cone, -kinetic * cone, kinetic * cone, color="#f2f2f2",
                      label=f"friction cone |Γ_t| ≤ μd Γ_n (μd = {kinetic:g})")
    for (law, label, colour), width in zip(LAWS, widths):
        path = impulse_path(results[law], D, u_pre, kinetic)
        axes.plot(path[:, 0], path[:, 1], color=colour, linewidth=width, alpha=0.9,
                  solid_capstyle="round", label=label.replace("\n", " "))
        axes.plot(*path[-1], marker="o", color=colour, markersize=6)
    axes.axhline(0, color="#999999", linewidth=0.8)
    axes.set_xlabel("normal impulse Γ_n [N s]")
    axes.set_ylabel("tangential impulse Γ_t [N s]")
    axes.set_title("impulse path", fontsize=10)
    axes.legend(fontsize=7, loc="best")


def draw_velocities(axes, results, D, u_pre, friction):
    kinetic = friction["kinetic"] if isinstance(friction, dict) else friction
    widths = [6, 4.5, 3, 1.5]
    for (law, label, colour), width in zip(LAWS, widths):
        path = impulse_path(results[law], D, u_pre, kinetic)
        u = u_pre + path @ D.T
        axes.plot(path[:, 0], u[:, 0], color=colour, linewidth=width, alpha=0.9)
        axes.plot(path[:, 0], u[:, 1], color=colour, linewidth=width, alpha=0.9, linestyle=":")
        axes.plot(path[-1, 0], u[-1, 0], marker="o", color=colour, markersize=6)
    axes.axhline(0, color="#999999", linewidth=0.8)
    axes.plot([], [], color="black", label="normal u_n (solid)")
    axes.plot([], [], color="black", linestyle=":", label="tangential u_t, the slip (dotted)")
    axes.set_xlabel("normal impulse Γ_n [N s]")
    axes.set_ylabel("contact velocity [m/s]")
    axes.set_title("contact velocities along the path", fontsize=10)
    axes.legend(fontsize=7, loc="best")


def draw_energy(axes, results):
    names = [law for law, _, _ in LAWS]
    places = np.arange(len(names))
    parts = [("W_n", "work of Γ_n", "//"), ("W_t", "work of Γ_t", "\\\\"),
             ("delta_T", "ΔT = W_n + W_t", "")]
    width = 0.26
    for k, (key, label, hatch) in enumerate(parts):
        values = [results[law][key] for law in names]
        axes.bar(places + (k - 1) * width, values, width, hatch=hatch, label=label,
                 color=[colour for _, _, colour in LAWS], edgecolor="black", linewidth=0.6,
                 alpha=0.55 if key != "delta_T" else 1.0)
    axes.axhline(0, color="black", linewidth=0.8)
    low, high = axes.get_ylim()
    axes.set_ylim(low, high + 0.45 * (high - low))  # room for the legend above the bars
    axes.set_xticks(places)
    axes.set_xticklabels(names, fontsize=8, rotation=15)
    axes.set_ylabel("energy [J]")
    axes.set_title("energy of the impact", fontsize=10)
    axes.legend(fontsize=7, loc="upper right")


def picture(problem, draw_body, scale, extent, output):
    results, D, u_pre = solve(problem)
    figure = plt.figure(figsize=(11, 8))
    layout = {"height_ratios": [1, 1.1], "hspace": 0.62, "left": 0.07, "right": 0.99,
              "top": 0.87, "bottom": 0.08}
    grid = figure.add_gridspec(2, 3, wspace=0.38, **layout)
    body_grid = figure.add_gridspec(2, 4, wspace=0.08, **layout)
    draw_bodies(figure, body_grid, problem, results, draw_body, scale, extent)
    draw_paths(figure.add_subplot(grid[1, 0]), results, D, u_pre, problem["friction"])
    draw_velocities(figure.add_subplot(grid[1, 1]), results, D, u_pre, problem["friction"])
    draw_energy(figure.add_subplot(grid[1, 2]), results)
    figure.suptitle(f"One impact, four laws: {problem['name']}\n"
                    f"D = J M⁻¹ Jᵀ = [[{D[0, 0]:.4g}, {D[0, 1]:.4g}], [{D[1, 0]:.4g}, "
                    f"{D[1, 1]:.4g}]] 1/kg, u⁻ = ({u_pre[0]:.4g}, {u_pre[1]:.4g}) m/s, "
                    f"e = {problem['restitution']:g}", fontsize=11)
    figure.savefig(output, metadata={"Date": None})
    plt.close(figure)
    return results


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-o", "--output-dir", default=os.path.join(REPOSITORY, "docs"),
                        help="where the SVGs go (default: the repository's docs/)")
    arguments = parser.parse_args(argv)
    plt.rcParams.update({"svg.fonttype": "none", "svg.hashsalt": "routh-impact-laws",
                         "font.size": 9})
    os.makedirs(arguments.output_dir, exist_ok=True)
    pictures = [
        ("impact_laws_ball.svg", BALL, draw_ball, 0.04, ((-0.22, 0.22), (-0.02, 0.24))),
        ("impact_laws_rod.svg", falling_rod(), draw_rod, 0.34, ((-0.35, 1.05), (-0.06, 0.9))),
    ]
    for name, problem, draw_body, scale, extent in pictures:
        output = os.path.join(arguments.output_dir, name)
        results = picture(problem, draw_body, scale, extent, output)
        print(f"{output}: {problem['name']}")
        for law, _, _ in LAWS:
            result = results[law]
            print(f"  {law:13s} {result['type']:28s} impulse ({result['impulse'][0]:.4f}, "
                  f"{result['impulse'][1]:.4f}) N s  v_post ({result['v_post'][0]:.4f}, "
                  f"{result['v_post'][1]:.4f}, {result['v_post'][2]:.4f})  W_n "
                  f"{result['W_n']:.4f} J  W_t {result['W_t']:.4f} J  delta_T "
                  f"{result['delta_T']:.4f} J  {','.join(result['flags']) or '-'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
