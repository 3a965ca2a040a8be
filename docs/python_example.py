# %% [markdown]
# # routh from Python
# A notebook-style tour of the `routh` package (docs/python.md): run it as a script, or cell by
# cell (`# %%`) in an editor that knows the format (VS Code, Spyder, Jupytext). From the build
# tree: `PYTHONPATH=build/release/python /usr/bin/python3 docs/python_example.py`; it writes
# restitution_sweep.png and rocking_block.h5 into the current directory.

# %%
from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd

import routh

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"

# %% [markdown]
# ## Loop over a parameter
# The rocking block of scenarios/rocking_block.yaml for three coefficients of restitution: each
# run is `routh run rocking_block.yaml --set contact.restitution=E --set duration=3`, in-process.

# %%
figure, axes = plt.subplots()
for restitution in (0.0, 0.3, 0.6):
    run = routh.run(
        SCENARIOS / "rocking_block.yaml", {"contact.restitution": restitution, "duration": 3}
    )
    theta = run.q[:, run.names.index("theta")]
    axes.plot(run.time, theta, label=f"e = {restitution}")
    print(
        f"e = {restitution}: {run.summary['impacts']} impacts, "
        f"{run.summary['dissipated_energy']:.4f} J dissipated"
    )
axes.set_xlabel("t [s]")
axes.set_ylabel("theta [rad]")
axes.legend()
figure.savefig("restitution_sweep.png", dpi=100)

# %% [markdown]
# ## Solve one impact
# The falling rod of paper 004 §6 in contact space (scenarios/impacts/falling_rod_paper004_
# contact_space.yaml): the answer is `routh impact`'s JSON as a dict.

# %%
rod = {
    "D": [[2.5, -1.5], [-1.5, 2.5]],
    "u": [-1.0, 0.6],
    "restitution": 0.82,
    "friction": {"static": 0.73, "kinetic": 0.7},
}
answer = routh.solve_impact("poisson", **rod)
print("poisson:", answer["status"], "impulse", answer["impulse"], "delta_T", answer["delta_T"])

# %% [markdown]
# ## Compare the laws
# Every law whose scope covers the problem, as `routh compare --json`, in a DataFrame.

# %%
results = pd.DataFrame(routh.compare(rod)["results"])
print(results[["law", "status", "impulse", "delta_T", "flags"]].to_string(index=False))

# %% [markdown]
# ## Load a file into pandas
# `routh.run(..., output=FILE)` keeps the file (as `routh run -o FILE` writes it); `routh.load`
# reads any trajectory file: samples as a DataFrame indexed by time, events one row each, the
# impulses split per contact (`Gamma_n.right_corner`, ...).

# %%
routh.run(SCENARIOS / "rocking_block.yaml", output="rocking_block.h5")
trajectory = routh.load("rocking_block.h5")
print(Path(trajectory.path).stem, trajectory)
samples = trajectory.samples()
print(samples[["q.theta", "total"]].describe().loc[["min", "max"]])
impacts = trajectory.events[trajectory.events["kind"] == "impact"]
print(impacts[["t", "contacts", "Gamma_n.left_corner", "Gamma_n.right_corner", "delta_T"]].head())
