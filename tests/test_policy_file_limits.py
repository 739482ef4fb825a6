"""A sidecar describing a huge network or space is refused before torch allocates anything."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from riven_agents.policy_file import (
    ALGORITHM,
    FORMAT,
    FORMAT_VERSION,
    MAX_LAYER_WIDTH,
    MAX_SPACE_ELEMENTS,
    check_sizes,
    read_sidecar,
)

from riven_env.errors import AgentSpecError

SMALL_OBS = {"type": "Box", "shape": [8], "dtype": "float32", "low": -1.0, "high": 1.0}
SMALL_ACT = {"type": "Discrete", "n": 4}


def _doc(**changes):
    doc = {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "algorithm": ALGORITHM,
        "observation_space": SMALL_OBS,
        "action_space": SMALL_ACT,
        "policy_settings": {"net_arch": {"pi": [64, 64], "vf": [64, 64]}},
    }
    doc.update(changes)
    return doc


def test_a_normal_sidecar_passes() -> None:
    check_sizes(_doc(), "p.json")


@pytest.mark.parametrize(
    "changes, named",
    [
        ({"policy_settings": {"net_arch": [10**9]}}, "net_arch"),
        ({"policy_settings": {"net_arch": {"pi": [64] * 1000, "vf": [64]}}}, "net_arch.pi"),
        ({"policy_settings": {"net_arch": {"pi": [64], "vf": [MAX_LAYER_WIDTH + 1]}}}, "net_arch.vf"),
        ({"observation_space": dict(SMALL_OBS, shape=[100000, 100000])}, "observation_space"),
        ({"observation_space": dict(SMALL_OBS, shape=[2] * 30)}, "observation_space"),
        ({"observation_space": {"type": "Dict", "spaces": {"a": dict(SMALL_OBS, shape=[MAX_SPACE_ELEMENTS]),
                                                           "b": dict(SMALL_OBS, shape=[2])}}},
         "observation_space"),
        ({"action_space": {"type": "Discrete", "n": 2**40}}, "action_space"),
    ],
)  # fmt: skip
def test_a_huge_sidecar_is_refused_in_one_line(tmp_path: Path, changes, named) -> None:
    weights = tmp_path / "p.safetensors"
    weights.write_bytes(b"")
    (tmp_path / "p.json").write_text(json.dumps(_doc(**changes)))
    with pytest.raises(AgentSpecError, match="allowed") as caught:
        read_sidecar(weights)
    assert named in str(caught.value) and "\n" not in str(caught.value)
