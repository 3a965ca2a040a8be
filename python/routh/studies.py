"""Studies of a sweep's table: fragility curves (``routh fragility``) and their plot.

``fragility`` goes through the C++ code of ``routh fragility --json`` (the runs chosen, the
maximum-likelihood fit and the bootstrap are computed there, not here), so its numbers are the
command's. ``plot_fragility`` draws a result on a matplotlib Figure it creates without pyplot,
leaving the backend as it was. See docs/sweeps.md, "Fragility and IDA".
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field, fields
from typing import Any

__all__ = ["FragilityResult", "fragility", "plot_fragility"]

DEFAULT_SEED = 20151  # routh fragility's --seed default: the same intervals every time


def _curve(im: float, median: float, beta: float) -> float:
    """Phi(ln(im / median) / beta): a lognormal fragility curve at IM `im` > 0."""
    return 0.5 * math.erfc(-math.log(im / median) / (beta * math.sqrt(2.0)))


@dataclass
class FragilityResult:
    """A lognormal fragility curve P(exceed | IM = x) = Phi(ln(x / median) / beta) fitted to a
    sweep table, with what it was fitted to. ``median`` and ``beta`` are None when no finite fit
    exists; ``status`` then names why ("all_exceed", "none_exceed", "separated", ...) and
    ``message`` says it in words. Intervals are (low, high) or None."""

    outcome: str
    im: str
    im_unit: str
    status: str
    message: str
    median: float | None
    beta: float | None
    log_likelihood: float | None
    median_interval: tuple[float, float] | None
    beta_interval: tuple[float, float] | None
    confidence: float
    bootstrap: dict[str, Any]
    levels: list[float]
    runs: list[int]
    exceeding: list[int]
    fractions: list[float]
    runs_used: int
    excluded: int
    excluded_by_reason: dict[str, int] = field(default_factory=dict)

    @property
    def fitted(self) -> bool:
        return self.status == "fitted"

    def probability(self, im: float) -> float:
        """The fitted probability of exceeding at IM `im` > 0."""
        if not self.fitted:
            raise ValueError(f"no fitted curve: {self.message}")
        return _curve(im, self.median, self.beta)


def fragility(
    path: str | os.PathLike,
    outcome: str = "overturned",
    im: str | None = None,
    *,
    confidence: float = 0.95,
    bootstrap: int = 1000,
    seed: int = DEFAULT_SEED,
) -> FragilityResult:
    """``routh fragility PATH --outcome OUTCOME [--im IM] --json``: the lognormal fragility curve
    of the sweep table at `path`. `outcome` is a 0/1 column ("overturned", "BODY.overturned") or
    "COLUMN>VALUE" on a numeric column; `im` the IM column (None: the swept .scale or scale_to
    key, else pga); `bootstrap` replicates (0: no intervals) at `confidence`, seeded by `seed`.
    Raises ValueError for an outcome or IM the table does not have, RuntimeError for a file that
    is not a readable sweep table."""
    from routh.api import _core

    core = _core()
    text = core.fragility_json(os.fspath(path), outcome, im, float(confidence), int(bootstrap),
                               int(seed))
    answer = json.loads(text)
    for key in ("median_interval", "beta_interval"):
        if answer[key] is not None:
            answer[key] = tuple(answer[key])
    known = {f.name for f in fields(FragilityResult)}  # a later routh may print more keys
    return FragilityResult(**{key: value for key, value in answer.items() if key in known})


def plot_fragility(result: FragilityResult, ax=None):
    """The fitted curve, the curves at the ends of the intervals as a band, and the fraction
    exceeding at each level (marker area by its runs, labelled n). Draws on `ax` if given,
    otherwise on a new Figure; returns the Figure."""
    import numpy as np
    from matplotlib.figure import Figure

    figure = ax.figure if ax is not None else Figure(figsize=(7, 4.5))
    axes = ax if ax is not None else figure.add_subplot()
    levels = np.asarray(result.levels, float)
    top = levels.max() if len(levels) else 1.0
    if result.fitted:
        top = max(top, result.median * math.exp(2.5 * result.beta))
    x = np.linspace(top / 240, top, 240)

    def curve(median, beta):
        return np.array([_curve(xi, median, beta) for xi in x])

    if result.fitted:
        if result.median_interval and result.beta_interval:
            corners = [curve(m, b) for m in result.median_interval for b in result.beta_interval]
            axes.fill_between(x, np.min(corners, axis=0), np.max(corners, axis=0), alpha=0.2,
                              color="tab:blue",
                              label=f"{result.confidence:.0%} interval of median, beta")
        axes.plot(x, curve(result.median, result.beta), color="tab:blue",
                  label=f"fit: median {result.median:.4g}, beta {result.beta:.3g}")
    sizes = 12 * np.asarray(result.runs, float)
    axes.scatter(levels, result.fractions, s=sizes, color="tab:red", alpha=0.75, zorder=3,
                 label="fraction of runs")
    for xi, yi, n in zip(levels, result.fractions, result.runs):
        axes.annotate(str(n), (xi, yi), textcoords="offset points", xytext=(5, 5), fontsize=8)
    unit = f" [{result.im_unit}]" if result.im_unit else ""
    axes.set_xlabel(f"{result.im}{unit}")
    axes.set_ylabel("P(exceed)")
    axes.set_ylim(-0.02, 1.02)
    axes.set_xlim(0, top)
    axes.set_title(f"Fragility: {result.outcome}" +
                   ("" if result.fitted else f" (no fit: {result.status})"))
    axes.grid(alpha=0.3)
    axes.legend(loc="lower right", fontsize=8)
    return figure
