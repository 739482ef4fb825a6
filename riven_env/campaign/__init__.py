"""Campaigns: a warband that lives through a chain of missions (issue 41; docs/campaigns.md).

Layers: this package sits above the game, scenario and playtest packages; none of them
imports it. One module per job:

* :mod:`~riven_env.campaign.rules`: the campaign house rules (``rules/data/campaign-v0.1.toml``);
* :mod:`~riven_env.campaign.schema` / :mod:`~riven_env.campaign.loader`: campaign files;
* :mod:`~riven_env.campaign.state`: the warband between missions (immutable);
* :mod:`~riven_env.campaign.mission`: the warband and a chain step into a mission;
* :mod:`~riven_env.campaign.outcome`: what a mission did to each model, from its events;
* :mod:`~riven_env.campaign.aftermath`: the post-battle sequence (experience, fate, injuries, rest);
* :mod:`~riven_env.campaign.decisions` / :mod:`~riven_env.campaign.policy`: the decisions
  between missions and who takes them;
* :mod:`~riven_env.campaign.dice`: the campaign's seeded (or scripted) dice;
* :mod:`~riven_env.campaign.runner` / :mod:`~riven_env.campaign.log`: a whole campaign and its log;
* :mod:`~riven_env.campaign.playtest`: many campaigns into DuckDB (resumable);
* :mod:`~riven_env.campaign.analysis` / :mod:`~riven_env.campaign.plots` /
  :mod:`~riven_env.campaign.report`: the playtest's HTML report (survival, snowball...);
* :mod:`~riven_env.campaign.compare`: rules variants on common campaign seeds.
"""

from riven_env.campaign.errors import CampaignError
from riven_env.campaign.loader import (
    list_campaigns,
    load_campaign,
    resolve_campaign,
    validate_campaign_file,
)
from riven_env.campaign.log import dumps_records, write_campaign_log
from riven_env.campaign.policy import POLICIES, make_policy
from riven_env.campaign.rules import CampaignRules, load_campaign_rules
from riven_env.campaign.runner import CampaignResult, play_campaign
from riven_env.campaign.state import Warband, WarbandModel

__all__ = [
    "POLICIES",
    "CampaignError",
    "CampaignResult",
    "CampaignRules",
    "Warband",
    "WarbandModel",
    "dumps_records",
    "list_campaigns",
    "load_campaign",
    "load_campaign_rules",
    "make_policy",
    "play_campaign",
    "resolve_campaign",
    "validate_campaign_file",
    "write_campaign_log",
]
