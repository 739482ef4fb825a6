"""Oracle cards: each behaviour profile as the card a solo player uses at the real table.

A card is built from the same data that drives :class:`riven_agents.oracle.OracleAgent` and worded
by :mod:`riven_agents.oracle.words`, so the printed card and the simulation cannot disagree. Dice
policies are printed as the concrete number of dice per Mettle, computed from the exact odds
of the rules in play (a solo player never computes odds at the table).

Two formats: Markdown (:func:`render_markdown`) and a self-contained, print-friendly HTML page
(:func:`render_html`, one card per printed page region, no external assets).
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass

from riven_agents.oracle import words
from riven_agents.oracle.dice import dice_for_rule, dice_odds
from riven_agents.oracle.profiles import OracleData, OracleDataError, OracleProfile, load_profiles

from riven_env.rules import RulesConfig, bundled_rules
from riven_env.rules.odds import mettle_range

FORMATS = ("md", "html")


@dataclass(frozen=True)
class Card:
    """The plain-words content of one profile's card.

    Attributes:
        name: Profile name (``aggressive``).
        title: Card title.
        description: What the profile is like.
        order: Activation order lines, first to last.
        hold: When a model holds back (empty: it never does).
        dice: Dice policy lines, first match wins.
        dice_by_mettle: ``(mettle, [dice per dice rule])`` rows for the policy table.
        priorities: ``(rule id, line)`` in priority order.
        fallback: ``(face, line)`` of the d6 table.
        targets: ``(action, line)`` of the default target selectors.
        spend: Spend policy lines, first match wins.
        bonus: Bonus action line, or empty.
    """

    name: str
    title: str
    description: str
    order: tuple[str, ...]
    hold: str
    dice: tuple[str, ...]
    dice_by_mettle: tuple[tuple[int, tuple[int, ...]], ...]
    priorities: tuple[tuple[str, str], ...]
    fallback: tuple[tuple[int, str], ...]
    targets: tuple[tuple[str, str], ...]
    spend: tuple[str, ...]
    bonus: str


def build_card(profile: OracleProfile, rules: RulesConfig | None = None) -> Card:
    """The card of one profile under ``rules`` (default: the bundled rules)."""
    rules = rules or bundled_rules()
    offered = list(range(1, int(rules.get("activation.max_dice")) + 1))
    by_mettle = tuple(
        (m, tuple(dice_for_rule(r, m, offered, rules) for r in profile.dice))
        for m in mettle_range(rules)
    )
    targets = []
    for action, selector in profile.targets.items():
        label = (
            "Any other target"
            if action == "default"
            else action.replace("_", " ").replace(":", " ")
        )
        targets.append((label, words.selector_text(selector, "candidate")))
    return Card(
        name=profile.name,
        title=profile.title,
        description=profile.description,
        order=tuple(words.order_text(profile.activation_order)),
        hold=words.conditions_text(profile.hold_when) if profile.hold_when else "",
        dice=tuple(words.dice_rule_text(r) for r in profile.dice),
        dice_by_mettle=by_mettle,
        priorities=tuple((r.id, words.rule_text(r, profile)) for r in profile.priorities),
        fallback=tuple((e.roll, words.fallback_text(profile, e.roll)) for e in profile.fallback),
        targets=tuple(targets),
        spend=tuple(words.spend_rule_text(r) for r in profile.spend),
        bonus=words.bonus_text(profile.bonus) if profile.bonus else "",
    )


def _select(data: OracleData, names: Sequence[str] | None) -> list[OracleProfile]:
    if not names:
        return list(data.profiles.values())
    unknown = [n for n in names if n not in data.profiles]
    if unknown:
        from riven_env.errors import did_you_mean

        raise OracleDataError(
            f"unknown Oracle profile(s) {', '.join(unknown)}"
            f"{did_you_mean(unknown[0], data.profiles)} (allowed: {', '.join(data.profiles)})"
        )
    return [data.profiles[n] for n in names]


def _dice_summary(mettle_dice: dict[int, tuple[int, ...]], k: int) -> str:
    """The dice of the k-th dice rule for each Mettle ("2+: 3, 3+: 3, ...")."""
    return ", ".join(f"{m}+: {dice[k]}" for m, dice in mettle_dice.items())


def _odds_note(rules: RulesConfig, card: Card) -> list[str]:
    """Expected actions and turnover chance of each Mettle's dice under the last dice rule."""
    notes = []
    for mettle, dice in card.dice_by_mettle:
        n = dice[-1]
        odds = dice_odds(mettle, n, rules)
        notes.append(
            f"Mettle {mettle}+: {n} dice, {float(odds['expected_actions']):.2f} actions on "
            f"average, the turn passes {words.percent(odds['p_turn_passes'])} of the time"
        )
    return notes


# ----------------------------------------------------------------------------- Markdown
def render_markdown(
    names: Sequence[str] | None = None,
    *,
    data: OracleData | None = None,
    rules: RulesConfig | None = None,
) -> str:
    """The cards of the named profiles (default: all) as one Markdown document.

    Raises:
        OracleDataError: A name is not a profile of the data.
    """
    data = data or load_profiles()
    rules = rules or bundled_rules()
    parts = [
        "# RIVEN Enemy Oracle cards",
        "",
        "Use one card per enemy model (its scenario profile). Before each activation pick the "
        "model by the activation order; before *every* action read the priority list from the "
        "top and do the first line that applies and is possible. Ties between targets go to "
        "the nearest, then the lowest model number.",
        "",
    ]
    for profile in _select(data, names):
        card = build_card(profile, rules)
        mettle_dice = dict(card.dice_by_mettle)
        parts += [f"## {card.title} (`{card.name}`)", "", f"*{card.description}*", ""]
        parts += ["**Activation order** (first that applies activates next):", ""]
        parts += [f"{k}. {line[0].upper()}{line[1:]}." for k, line in enumerate(card.order, 1)]
        parts.append("")
        if card.hold:
            parts += [
                f"**Holds back.** {card.hold}: the model does not activate; when only such "
                "models are left, the side passes.",
                "",
            ]
        parts += ["**Activation dice** (first that applies):", ""]
        for k, line in enumerate(card.dice):
            parts.append(f"- {line} By Mettle: {_dice_summary(mettle_dice, k)}.")
        parts.append("")
        if card.bonus:
            parts += [f"**Bonus action.** {card.bonus}", ""]
        parts += ["**Every action, the first line that applies and is possible:**", ""]
        parts += [
            f"{k}. {line} *({rule_id})*" for k, (rule_id, line) in enumerate(card.priorities, 1)
        ]
        parts += ["", "**Nothing applies? Roll a d6:**", "", "| d6 | Action |", "|---|---|"]
        parts += [f"| {face} | {line} |" for face, line in card.fallback]
        parts += ["", "If the rolled action is impossible, the activation ends.", ""]
        parts += ["**Targets** (when a line names none):", ""]
        parts += [f"- {action.capitalize()}: {line}." for action, line in card.targets]
        parts += ["", "**Spending** (after a roll, first that applies):", ""]
        parts += [f"- {line}" for line in card.spend] or ["- Never spends: every result stands."]
        parts += ["- Otherwise the result stands.", ""] if card.spend else [""]
    return "\n".join(parts).rstrip() + "\n"


# ----------------------------------------------------------------------------- HTML
_CSS = """
:root { --ink: #1d1b16; --line: #8a7f6a; --head: #efe7d6; }
* { box-sizing: border-box; }
body { font: 11pt/1.35 Georgia, 'Times New Roman', serif; color: var(--ink); margin: 1.5em; }
h1 { font-size: 16pt; margin: 0 0 .3em; }
p.intro { max-width: 60em; }
.card { border: 2px solid var(--ink); border-radius: 8px; padding: .8em 1em; margin: 0 0 1.2em;
        max-width: 44em; break-inside: avoid; page-break-inside: avoid; }
.card h2 { font-size: 14pt; margin: 0; padding: .2em .4em; background: var(--head);
           border-bottom: 1px solid var(--line); }
.card h2 code { font-size: 10pt; font-weight: normal; }
.card h3 { font-size: 11pt; margin: .7em 0 .2em; text-transform: uppercase; letter-spacing: .05em; }
.card .desc { font-style: italic; margin: .4em 0; }
.card ol, .card ul { margin: .2em 0 .2em 1.4em; padding: 0; }
.card .rule { color: #6b6253; font-size: 9pt; }
table { border-collapse: collapse; margin: .2em 0; }
td, th { border: 1px solid var(--line); padding: .15em .5em; text-align: left; vertical-align: top; }
th { background: var(--head); }
@media print {
  body { margin: 0; font-size: 10pt; }
  p.intro { display: none; }
  .card { page-break-after: always; break-after: page; border-width: 1.5px; }
}
"""


def _e(text: str) -> str:
    return html.escape(text, quote=True)


def _card_html(card: Card, rules: RulesConfig) -> str:
    mettles = [m for m, _ in card.dice_by_mettle]
    out = [f'<section class="card" id="oracle-{_e(card.name)}">']
    out.append(f"<h2>{_e(card.title)} <code>{_e(card.name)}</code></h2>")
    out.append(f'<p class="desc">{_e(card.description)}</p>')
    out.append("<h3>Activation order</h3><ol>")
    out += [f"<li>{_e(line[0].upper() + line[1:])}.</li>" for line in card.order]
    out.append("</ol>")
    if card.hold:
        out.append(
            f"<p><b>Holds back.</b> {_e(card.hold)}: the model does not activate; when only "
            "such models are left, the side passes.</p>"
        )
    out.append("<h3>Activation dice</h3><table><tr><th>First that applies</th>")
    out += [f"<th>Mettle {m}+</th>" for m in mettles]
    out.append("</tr>")
    for k, line in enumerate(card.dice):
        out.append(f"<tr><td>{_e(line)}</td>")
        out += [f"<td>{dice[k]}</td>" for _, dice in card.dice_by_mettle]
        out.append("</tr>")
    out.append("</table>")
    if card.bonus:
        out.append(f"<p><b>Bonus action.</b> {_e(card.bonus)}</p>")
    out.append("<h3>Every action: first line that applies and is possible</h3><ol>")
    out += [
        f'<li>{_e(line)} <span class="rule">({_e(rule_id)})</span></li>'
        for rule_id, line in card.priorities
    ]
    out.append("</ol>")
    out.append("<h3>Nothing applies? Roll a d6</h3><table><tr><th>d6</th><th>Action</th></tr>")
    out += [f"<tr><td>{face}</td><td>{_e(line)}</td></tr>" for face, line in card.fallback]
    out.append("</table><p>If the rolled action is impossible, the activation ends.</p>")
    out.append("<h3>Targets (when a line names none)</h3><ul>")
    out += [f"<li>{_e(action.capitalize())}: {_e(line)}.</li>" for action, line in card.targets]
    out.append("</ul><h3>Spending (first that applies)</h3><ul>")
    out += [f"<li>{_e(line)}</li>" for line in card.spend] or [
        "<li>Never spends: every result stands.</li>"
    ]
    if card.spend:
        out.append("<li>Otherwise the result stands.</li>")
    out.append("</ul>")
    out.append(f'<p class="rule">{_e("; ".join(_odds_note(rules, card)))}.</p>')
    out.append("</section>")
    return "\n".join(out)


def render_html(
    names: Sequence[str] | None = None,
    *,
    data: OracleData | None = None,
    rules: RulesConfig | None = None,
) -> str:
    """The cards of the named profiles (default: all) as one self-contained HTML page.

    Raises:
        OracleDataError: A name is not a profile of the data.
    """
    data = data or load_profiles()
    rules = rules or bundled_rules()
    cards = [_card_html(build_card(p, rules), rules) for p in _select(data, names)]
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en"><head><meta charset="utf-8">',
            "<title>RIVEN Enemy Oracle cards</title>",
            f"<style>{_CSS}</style></head><body>",
            "<h1>RIVEN Enemy Oracle cards</h1>",
            '<p class="intro">One card per enemy model. Before each activation pick the model by '
            "the activation order; before <em>every</em> action read the list from the top and do "
            "the first line that applies and is possible. Ties between targets go to the nearest, "
            "then the lowest model number.</p>",
            *cards,
            "</body></html>",
            "",
        ]
    )


def render(
    fmt: str,
    names: Sequence[str] | None = None,
    *,
    data: OracleData | None = None,
    rules: RulesConfig | None = None,
) -> str:
    """Render cards in ``fmt`` (``md`` or ``html``).

    Raises:
        OracleDataError: ``fmt`` is unknown or a name is not a profile of the data.
    """
    if fmt == "md":
        return render_markdown(names, data=data, rules=rules)
    if fmt == "html":
        return render_html(names, data=data, rules=rules)
    raise OracleDataError(f"unknown card format {fmt!r}; allowed: {', '.join(FORMATS)}")


__all__ = ["FORMATS", "Card", "build_card", "render", "render_html", "render_markdown"]
