"""The look routh's pictures share (routh.plot, routh.animate): one colour per body, kept in every
panel and every frame, and line widths a reader can see.

Red is kept for impacts and grey for the ground: no body is drawn in them, so an impact marker
never looks like a body.
"""

from __future__ import annotations

# matplotlib's tab10 without its red and grey (they mark impacts and the ground), then tab20's
# light shades without theirs: eight strong colours for the usual models (routh.view's), sixteen
# distinct ones in all before they repeat
BODY_PALETTE = (
    "#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#bcbd22", "#17becf",
    "#aec7e8", "#ffbb78", "#98df8a", "#c5b0d5", "#c49c94", "#f7b6d2", "#dbdb8d", "#9edae5",
)
IMPACT_COLOUR = "#d62728"  # tab:red
OBSTACLE_COLOUR = "0.35"
JOINT_COLOUR = "black"
CONTACT_COLOUR = "0.15"

CURVE_WIDTH = 1.5  # [pt] curves of the plots
EDGE_WIDTH = 2.0  # [pt] outlines of blocks, disks and spatial wireframes
LINK_WIDTH = 5.0  # [pt] rods and links (segments, bodies without a shape)


def body_colours(model: dict) -> dict[str, str]:
    """{body name: colour}, in the model's order of its bodies."""
    return {body["name"]: BODY_PALETTE[k % len(BODY_PALETTE)]
            for k, body in enumerate(model["bodies"])}


def coordinate_bodies(model: dict) -> dict[str, str]:
    """{coordinate name: the body it moves}: a planar joint's coordinates belong to its child
    body, a spatial body's seven to itself."""
    owners = {}
    for body in model["bodies"]:
        names = body["joint"]["coordinates"] if "joint" in body else body["coordinates"]
        owners.update({name: body["name"] for name in names})
    return owners
