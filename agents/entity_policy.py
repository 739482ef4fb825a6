"""An entity-attention policy with pointer-style target choice, for MaskablePPO (sb3-contrib).

It reads the entity observation of ``riven/Skirmish-v1``
(:class:`riven_env.encoding.entity.EntityEncoder`):

* :class:`EntityExtractor` embeds every model row, objective row, terrain row and the global
  vector as one token each, adds to each model token what its pair rows say (pooled over the
  models it looks at and the models that look at it), and runs ``attention_layers``
  transformer blocks over the tokens. Padding tokens (``present`` = 0) are masked out as
  keys, and the model-to-model attention logits get a learned bias per head from the pair
  rows (sight, cover, shot legality, charge reach...). Its output is the model and objective
  tokens plus one context vector (the global token, the acting model's token and the mean
  own and enemy tokens).
* :class:`PointerHead` turns those into the action logits, as a choice of the decision
  kind (a "group", :func:`riven_env.encoding.entity.decision_group`: ``move``, ``charge``,
  ``shoot``, ``self``, ``activate``...) followed by a choice
  within it: ``log p(entry) = log p(group) + log p(entry | group)``, both over the legal
  entries only (the ``action_mask`` of the observation). Within a group an entry that names
  an entity (``charge enemy:2``, ``activate own:0 dice:2``, ``interact objective:1``) scores
  the dot product of a query from the context (one per entry kind and target kind, a
  "head") with that entity's key, plus the head's read-out of the context; an entry without
  one (``move @away``) the read-out alone. The factorisation is the turtling fix on the
  policy side: an untrained policy gives each legal kind the same share, where a flat
  softmax over entries gives a charge (one or two entries) about 1% and the dozen moves
  about 70%. No weight depends on the number of models, objectives or terrain pieces, so
  the same weights run on any padding (the entry -> group/head/entity maps are buffers
  that are not saved).

:class:`EntityPolicy` is the MaskableActorCriticPolicy that wires them; ``riven train
--policy entity`` (``policy.kind = "entity"``) trains it and :mod:`riven_agents.policy_file`
saves and loads it by its name in a fixed allow-list.
"""

from __future__ import annotations

import math
from typing import Any

import torch
from gymnasium import spaces
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

# Attention logit of a masked (padding) key: far below any real logit, finite so that a row
# of padding tokens still softmaxes to numbers.
_MASKED = -1e9


class _Block(nn.Module):
    """A pre-norm transformer block whose attention logits take an additive bias."""

    def __init__(self, d_model: int, heads: int) -> None:
        super().__init__()
        self.heads = heads
        self.norm1 = nn.LayerNorm(d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.ff = nn.Sequential(
            nn.Linear(d_model, 2 * d_model), nn.ReLU(), nn.Linear(2 * d_model, d_model)
        )

    def forward(self, x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
        b, n, d = x.shape
        h = self.heads
        q, k, v = self.qkv(self.norm1(x)).reshape(b, n, 3, h, d // h).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-1, -2) / math.sqrt(d // h) + bias
        mixed = (scores.softmax(-1) @ v).transpose(1, 2).reshape(b, n, d)
        x = x + self.out(mixed)
        return x + self.ff(self.norm2(x))


class EntityExtractor(BaseFeaturesExtractor):
    """Entity tokens and attention over them (see the module docstring).

    Args:
        observation_space: The ``riven/Skirmish-v1`` Dict space.
        d_model: Token width.
        attention_heads: Attention heads (``d_model`` must divide by it).
        attention_layers: Transformer blocks.
        acting_column: Column of ``acting`` in the ``models`` rows.
        own_column: Column of ``own`` in the ``models`` rows.
    """

    def __init__(
        self,
        observation_space: spaces.Dict,
        d_model: int = 64,
        attention_heads: int = 4,
        attention_layers: int = 2,
        acting_column: int = 0,
        own_column: int = 1,
    ) -> None:
        sp = observation_space.spaces
        s2 = sp["models"].shape[0]
        k = sp["objectives"].shape[0]
        actions = sp["action_mask"].shape[0]
        super().__init__(observation_space, features_dim=(s2 + k + 1) * d_model + actions)
        self.d_model = d_model
        self.heads = attention_heads
        self.acting_column = acting_column
        self.own_column = own_column
        self.model_in = nn.Linear(sp["models"].shape[1], d_model)
        self.objective_in = nn.Linear(sp["objectives"].shape[1], d_model)
        self.terrain_in = nn.Linear(sp["terrain"].shape[1], d_model)
        self.global_in = nn.Linear(sp["global"].shape[0], d_model)
        self.pair_in = nn.Sequential(nn.Linear(sp["pairs"].shape[2], d_model), nn.ReLU())
        self.pair_rows = nn.Linear(d_model, d_model)
        self.pair_cols = nn.Linear(d_model, d_model)
        self.pair_bias = nn.Linear(d_model, attention_heads)
        self.blocks = nn.ModuleList(
            _Block(d_model, attention_heads) for _ in range(attention_layers)
        )
        self.norm = nn.LayerNorm(d_model)
        self.context = nn.Sequential(nn.Linear(4 * d_model, d_model), nn.ReLU())

    def forward(self, obs: dict[str, torch.Tensor]) -> torch.Tensor:
        models, objectives = obs["models"], obs["objectives"]
        terrain, pairs = obs["terrain"], obs["pairs"]
        b, s2, _ = models.shape
        present_m = models[..., 0] > 0.5
        pair_present = pairs[..., 0:1]
        pair = self.pair_in(pairs) * pair_present  # (B, S2, S2, d), 0 for absent pairs
        # What a model sees (its rows) and what sees it (its column), max-pooled.
        rows = self.pair_rows(pair.max(dim=2).values)
        cols = self.pair_cols(pair.max(dim=1).values)
        model_tok = torch.relu(self.model_in(models)) + rows + cols
        tokens = torch.cat(
            (
                model_tok,
                torch.relu(self.objective_in(objectives)),
                torch.relu(self.terrain_in(terrain)),
                torch.relu(self.global_in(obs["global"])).unsqueeze(1),
            ),
            dim=1,
        )
        n = tokens.shape[1]
        present = torch.cat(
            (
                present_m,
                objectives[..., 0] > 0.5,
                terrain[..., 0] > 0.5,
                torch.ones(b, 1, dtype=torch.bool, device=models.device),
            ),
            dim=1,
        )
        bias = torch.zeros(b, self.heads, n, n, device=models.device)
        bias[:, :, :s2, :s2] = self.pair_bias(pair).permute(0, 3, 1, 2)
        bias = bias.masked_fill(~present[:, None, None, :], _MASKED)
        for block in self.blocks:
            tokens = block(tokens, bias)
        tokens = self.norm(tokens)
        model_out = tokens[:, :s2]
        k = objectives.shape[1]
        objective_out = tokens[:, s2 : s2 + k]
        acting = models[..., self.acting_column : self.acting_column + 1]
        own = models[..., self.own_column : self.own_column + 1] * present_m[..., None]
        enemy = (1.0 - models[..., self.own_column : self.own_column + 1]) * present_m[..., None]
        context = self.context(
            torch.cat(
                (
                    tokens[:, -1],
                    (model_out * acting).sum(1),
                    (model_out * own).sum(1) / own.sum(1).clamp(min=1.0),
                    (model_out * enemy).sum(1) / enemy.sum(1).clamp(min=1.0),
                ),
                dim=1,
            )
        )
        return torch.cat(
            (model_out.flatten(1), objective_out.flatten(1), context, obs["action_mask"]), dim=1
        )


class PointerHead(nn.Module):
    """The action logits and the value latent from :class:`EntityExtractor`'s output.

    Args:
        d_model: Token width.
        entities: Model and objective tokens in the features (``2S + K``).
        pointer_groups: Per catalogue entry, its group (decision kind).
        pointer_heads: Per catalogue entry, its head.
        pointer_entities: Per catalogue entry, its entity token (-1: none).
    """

    def __init__(
        self,
        d_model: int,
        entities: int,
        pointer_groups: list[int],
        pointer_heads: list[int],
        pointer_entities: list[int],
    ) -> None:
        super().__init__()
        self.d_model = d_model
        self.entities = entities
        n_heads = max(pointer_heads) + 1
        self.n_heads = n_heads
        self.latent_dim_pi = len(pointer_heads)
        self.latent_dim_vf = d_model
        self.query = nn.Sequential(
            nn.Linear(d_model, d_model), nn.ReLU(), nn.Linear(d_model, n_heads * d_model)
        )
        self.key = nn.Linear(d_model, d_model)
        self.plain = nn.Sequential(
            nn.Linear(d_model, d_model), nn.ReLU(), nn.Linear(d_model, n_heads)
        )
        n_groups = max(pointer_groups) + 1
        self.n_groups = n_groups
        self.group = nn.Sequential(
            nn.Linear(d_model, d_model), nn.ReLU(), nn.Linear(d_model, n_groups)
        )
        self.value = nn.Sequential(nn.Linear(d_model, d_model), nn.ReLU())
        heads = torch.tensor(pointer_heads, dtype=torch.long)
        ents = torch.tensor(pointer_entities, dtype=torch.long)
        # Not saved: they follow from the catalogue, so the weights fit any padding.
        self.register_buffer("heads", heads, persistent=False)
        self.register_buffer("gather", heads * entities + ents.clamp(min=0), persistent=False)
        self.register_buffer("has_entity", (ents >= 0).float(), persistent=False)
        self.register_buffer(
            "groups", torch.tensor(pointer_groups, dtype=torch.long), persistent=False
        )
        # Small initial logits: the untrained policy is near uniform over the legal kinds,
        # and within a kind over its legal entries.
        for layer in (self.query[-1], self.plain[-1], self.group[-1]):
            nn.init.normal_(layer.weight, std=0.01)
            nn.init.zeros_(layer.bias)

    def _split(self, features: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """``(tokens, context, legal)`` from the extractor's output."""
        d, e = self.d_model, self.entities
        tokens = features[:, : e * d].reshape(-1, e, d)
        context = features[:, e * d : (e + 1) * d]
        return tokens, context, features[:, (e + 1) * d :] > 0.5

    def forward(self, features: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return self.forward_actor(features), self.forward_critic(features)

    def forward_actor(self, features: torch.Tensor) -> torch.Tensor:
        tokens, context, legal = self._split(features)
        b = tokens.shape[0]
        query = self.query(context).reshape(b, self.n_heads, self.d_model)
        scores = torch.einsum("bhd,bnd->bhn", query, self.key(tokens)) / math.sqrt(self.d_model)
        pointed = scores.reshape(b, -1)[:, self.gather] * self.has_entity
        within = self.plain(context)[:, self.heads] + pointed
        # log p(entry | group): a log-softmax of `within` over the legal entries of each
        # group (illegal entries are masked by the distribution anyway).
        index = self.groups.expand(b, -1)
        masked = within.masked_fill(~legal, -math.inf)
        top = torch.full((b, self.n_groups), -math.inf, device=within.device)
        top = top.scatter_reduce(1, index, masked, reduce="amax", include_self=True)
        top = torch.where(torch.isfinite(top), top, torch.zeros_like(top)).detach()
        shifted = (within - top.gather(1, index)).clamp(max=50.0)
        exp = torch.exp(shifted) * legal
        total = torch.zeros(b, self.n_groups, device=within.device).scatter_add(1, index, exp)
        log_total = torch.log(total.clamp(min=1e-30)) + top
        return self.group(context)[:, self.groups] + within - log_total.gather(1, index)

    def forward_critic(self, features: torch.Tensor) -> torch.Tensor:
        return self.value(self._split(features)[1])


class EntityPolicy(MaskableActorCriticPolicy):
    """MaskablePPO's actor-critic with :class:`EntityExtractor` and :class:`PointerHead`.

    Args:
        observation_space: The ``riven/Skirmish-v1`` Dict space.
        action_space: ``Discrete`` over the action catalogue.
        lr_schedule: Learning-rate schedule.
        pointer_groups: Per catalogue entry, its group
            (:func:`riven_env.encoding.entity.pointer_layout`).
        pointer_heads: Per catalogue entry, its head.
        pointer_entities: Per catalogue entry, its entity (-1: none).
        d_model: Token width.
        attention_heads: Attention heads.
        attention_layers: Transformer blocks.
        acting_column: Column of ``acting`` in the ``models`` rows.
        own_column: Column of ``own`` in the ``models`` rows.
        optimizer_kwargs: Optimizer settings (default: Adam with ``eps`` 1e-5).
    """

    def __init__(
        self,
        observation_space: spaces.Dict,
        action_space: spaces.Discrete,
        lr_schedule: Any,
        pointer_groups: list[int] | None = None,
        pointer_heads: list[int] | None = None,
        pointer_entities: list[int] | None = None,
        d_model: int = 64,
        attention_heads: int = 4,
        attention_layers: int = 2,
        acting_column: int = 0,
        own_column: int = 1,
        optimizer_kwargs: dict[str, Any] | None = None,
    ) -> None:
        n = int(action_space.n)
        self.pointer_groups = list(pointer_groups) if pointer_groups is not None else [0] * n
        self.pointer_heads = list(pointer_heads) if pointer_heads is not None else [0] * n
        self.pointer_entities = list(pointer_entities) if pointer_entities is not None else [-1] * n
        self.d_model = d_model
        self.attention_heads = attention_heads
        self.attention_layers = attention_layers
        self.acting_column = acting_column
        self.own_column = own_column
        super().__init__(
            observation_space,
            action_space,
            lr_schedule,
            net_arch=[],
            ortho_init=False,
            features_extractor_class=EntityExtractor,
            features_extractor_kwargs={
                "d_model": d_model,
                "attention_heads": attention_heads,
                "attention_layers": attention_layers,
                "acting_column": acting_column,
                "own_column": own_column,
            },
            optimizer_kwargs=optimizer_kwargs,
        )

    def _build_mlp_extractor(self) -> None:
        sp = self.observation_space.spaces
        entities = sp["models"].shape[0] + sp["objectives"].shape[0]
        self.mlp_extractor = PointerHead(
            self.d_model, entities, self.pointer_groups, self.pointer_heads, self.pointer_entities
        )

    def _build(self, lr_schedule: Any) -> None:
        super()._build(lr_schedule)
        # The pointer head's output already is the logits: no linear layer after it.
        self.action_net = nn.Identity()
        self.optimizer = self.optimizer_class(
            self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs
        )

    def _predict(
        self,
        observation: Any,
        deterministic: bool = False,
        action_masks: Any = None,
    ) -> torch.Tensor:
        """The action; deterministic: the likeliest kind, then its likeliest entry.

        The plain mode of ``p(kind) p(entry | kind)`` would favour kinds with one entry (a
        focus) over a kind whose mass is split over a dozen entries (the moves), however
        much likelier the policy finds moving: the deterministic agent would turtle.
        """
        distribution = self.get_distribution(observation, action_masks)
        if not deterministic:
            return distribution.get_actions(deterministic=False)
        probs = distribution.distribution.probs
        groups = self.mlp_extractor.groups.expand(probs.shape[0], -1)
        mass = torch.zeros(probs.shape[0], self.mlp_extractor.n_groups, device=probs.device)
        best = mass.scatter_add(1, groups, probs).argmax(1, keepdim=True)
        return probs.masked_fill(groups != best, -1.0).argmax(1)

    def _get_constructor_parameters(self) -> dict[str, Any]:
        return {
            "observation_space": self.observation_space,
            "action_space": self.action_space,
            "lr_schedule": self._dummy_schedule,
            "pointer_groups": self.pointer_groups,
            "pointer_heads": self.pointer_heads,
            "pointer_entities": self.pointer_entities,
            "d_model": self.d_model,
            "attention_heads": self.attention_heads,
            "attention_layers": self.attention_layers,
            "acting_column": self.acting_column,
            "own_column": self.own_column,
            "optimizer_kwargs": self.optimizer_kwargs,
        }


def entity_policy_kwargs(env: Any, settings: dict[str, Any]) -> dict[str, Any]:
    """The EntityPolicy arguments for an entity environment and the ``[policy]`` settings."""
    from riven_env.encoding.entity import pointer_layout

    groups, heads, entities, _ = pointer_layout(env.catalogue)
    names = env.encoder.model_features
    return {
        "pointer_groups": groups,
        "pointer_heads": heads,
        "pointer_entities": entities,
        "d_model": int(settings["d_model"]),
        "attention_heads": int(settings["attention_heads"]),
        "attention_layers": int(settings["attention_layers"]),
        "acting_column": names.index("acting"),
        "own_column": names.index("own"),
    }


__all__ = ["EntityExtractor", "EntityPolicy", "PointerHead", "entity_policy_kwargs"]
