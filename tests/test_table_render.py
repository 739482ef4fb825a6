"""SVG strings (pure) and matplotlib rendering; import purity of the tabletop package."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from riven_env.errors import TerrainError
from riven_env.table import Bases, Table, render_table, svg_for_state, svg_terrain, to_svg

TABLE = Table.from_spec(
    {
        "width": 24,
        "height": 24,
        "terrain": [
            {"name": "wall <A>", "type": "wall", "rect": [10, 4, 11, 20]},
            {"type": "woods", "circle": [5, 18, 3]},
        ],
    }
)
BASES = Bases.from_lists([[3, 3], [20, 20], [6, 6]], [1.0, 1.0, 2.0])
SVG = "{http://www.w3.org/2000/svg}"


def test_svg_terrain_is_a_group_with_one_path_per_piece() -> None:
    group = ET.fromstring(svg_terrain(TABLE))
    assert group.get("id") == "terrain"
    paths = group.findall(f"{SVG}path") or group.findall("path")
    assert [p.get("data-type") for p in paths] == ["wall", "woods"]
    assert "wall <A>" in ET.tostring(group, encoding="unicode").replace("&lt;", "<").replace(
        "&gt;", ">"
    )


def test_svg_for_state_draws_models_marks_and_overlays() -> None:
    BASES_ = BASES.copy()
    BASES_.remove(2)
    text = svg_for_state(
        TABLE,
        BASES_,
        ["blue", "red", "red"],
        labels=["A", "B", "C"],
        marks=["W1 Dazed", "", ""],
        objectives=[(12, 12), (2, 22, 1.0)],
        zones=[("blue", (0, 0, 24, 4))],
        sight_lines=[(0, 1)],
        paths=[[(3, 3), (8, 3), (9, 9)]],
        title="demo",
    )
    root = ET.fromstring(text)
    assert root.get("viewBox") == "0 0 480 480"
    ids = {el.get("id") for el in root.iter() if el.get("id")}
    assert {"terrain", "models", "model-0", "model-1", "zones", "objectives", "sight"} <= ids
    assert "model-2" not in ids  # removed models are not drawn
    model0 = next(el for el in root.iter() if el.get("id") == "model-0")
    assert model0.get("transform") == "translate(60.0 420.0)"  # y is flipped
    assert "W1 Dazed" in text and "O1" in text


def test_to_svg_terrain_only() -> None:
    root = ET.fromstring(to_svg(TABLE))
    assert root.tag.endswith("svg")


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_render_table_writes_files(tmp_path: Path, suffix: str) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / f"table{suffix}"
    render_table(
        TABLE,
        BASES,
        sides=["blue", "red", "red"],
        labels=["A", "B", "C"],
        marks=["W1", "", "Dazed"],
        objectives=[(12, 12)],
        zones=[("red", (0, 20, 24, 24))],
        sight_lines=[(0, 1)],
        paths=[[(3, 3), (9, 3)]],
        path_out=out,
    )
    data = out.read_bytes()
    assert data.startswith(b"\x89PNG") if suffix == ".png" else b"<svg" in data


def test_render_table_refuses_unknown_formats(tmp_path: Path) -> None:
    with pytest.raises(TerrainError, match=".gif"):
        render_table(TABLE, BASES, sides=["blue"] * 3, path_out=tmp_path / "x.gif")


def test_importing_the_tabletop_pulls_no_heavy_packages() -> None:
    code = (
        "import sys, riven_env.table, riven_env.table.render;"
        "bad = [m for m in ('matplotlib', 'gymnasium', 'pettingzoo', 'torch') if m in sys.modules];"
        "print(','.join(bad))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[1],
    )
    assert done.stdout.strip() == ""
