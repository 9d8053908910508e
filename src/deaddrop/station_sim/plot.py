"""Each faction's win rate by table size with its Wilson interval, as a PNG or SVG file."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

FORMATS = {".png": "png", ".svg": "svg"}
"""The file endings --plot accepts, and the format each one writes."""

COLOURS = {"station": "#1f5f8b", "ring": "#b03a2e"}


def plot_format(path: Path) -> str:
    """The image format for a file name; ValueError (one line) for another ending or folder."""
    kind = FORMATS.get(path.suffix.lower())
    if kind is None:
        raise ValueError(f"--plot: {path.name!r} must end in .png or .svg")
    if not path.parent.is_dir():
        raise ValueError(f"--plot: there is no folder {str(path.parent)!r}")
    return kind


def plot_win_rates(results: Sequence[Mapping[str, Any]], path: Path) -> None:
    """Draw the `simulate --json` objects (one per table size) and write the file."""
    # The object-oriented API needs no display and no global pyplot state.
    from matplotlib.figure import Figure

    kind = plot_format(path)
    figure = Figure(figsize=(6.4, 4.0), layout="constrained")
    axes = figure.add_subplot()
    sizes = [result["players"] for result in results]
    for offset, side in ((-0.08, "station"), (0.08, "ring")):
        rates = [result["win_rate"][side] for result in results]
        below = [
            rate - result["ci95"][side][0] for rate, result in zip(rates, results, strict=True)
        ]
        above = [
            result["ci95"][side][1] - rate for rate, result in zip(rates, results, strict=True)
        ]
        axes.errorbar(
            [size + offset for size in sizes],
            rates,
            yerr=[below, above],
            fmt="o-" if len(sizes) > 1 else "o",
            capsize=4,
            color=COLOURS[side],
            label=side.title(),
        )
    first = results[0]
    bots = first["bots"]
    levels = f"Station {bots['station']} vs Ring {bots['ring']}"
    axes.set_title(f"Win rate by table size, 95% Wilson intervals ({levels})", fontsize=10)
    axes.set_xlabel("players")
    axes.set_ylabel(f"win rate over {first['games']:,} games")
    axes.set_xticks(sizes)
    axes.set_xlim(min(sizes) - 0.5, max(sizes) + 0.5)
    axes.set_ylim(0, 1)
    axes.yaxis.set_major_formatter(lambda value, _: f"{value:.0%}")
    axes.grid(axis="y", alpha=0.3)
    axes.legend()
    figure.savefig(path, format=kind)
