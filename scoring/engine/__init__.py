"""Partscore's rules engine: the only code that knows a scoring number.

Pure Python, immutable values, no Django and no I/O. ``score_match`` scores a whole match
(Chicago, rubber or two-player Draw Bridge) from its list of results, under its club's ``Rules``
(every scoring option, one value); ``score_contract`` scores one contract. The rules are in
docs/rules.md; each module's docstring cites its section.
``movements`` plans a club night's seating (docs/nights.md): ``round_robin``, ``first_round`` and
``winners_move``, with ``check_round`` for a round seated by hand; ``night`` ranks the
night's results (``rank_night``: by total, average or a sit-out scored as the
player's average), sharing places as the ladder does (``shared_ranks``). ``par`` reads a
played deal against its cards (``par_deal``: high-card points, a ``ParTable``, IMPs);
``handicap`` turns a rating into a handicap per match (``handicap_of``).
"""

from .chicago import chicago_schedule, score_chicago
from .contract import (
    ContractItem,
    ContractScore,
    ItemKind,
    Party,
    ScoreItem,
    score_contract,
)
from .errors import InvalidInput, MatchComplete, ScoringError
from .match import check_next, parse_kind, score_match
from .movements import (
    Round,
    Table,
    TieRule,
    check_round,
    first_round,
    moving_side,
    round_robin,
    winners_move,
)
from .night import (
    BY_NET,
    BY_PAR,
    NIGHT_MEASURES,
    NIGHT_RANKINGS,
    RANK_AVERAGE,
    RANK_SIT_OUT_AVERAGE,
    RANK_TOTAL,
    NightLine,
    NightMatch,
    rank_night,
)
from .notation import (
    HCP_TOTAL,
    Contract,
    DealResult,
    Doubling,
    PassedOut,
    Played,
    Seat,
    Side,
    Strain,
    make_result,
    parse_contract,
    parse_seat,
)
from .par import (
    DEFAULT_PAR_TABLE,
    IMP_STEPS,
    PAR_HCP,
    ParDeal,
    ParSheet,
    ParTable,
    imps,
    par_deal,
    read_par,
    row_readings,
)
from .ranks import shared_ranks
from .rubber import score_rubber
from .rules import DEFAULT_RULES, Rules
from .sheet import ChicagoVulnerability, DealRow, Kind, NextDeal, Sheet, Winner, side_net

__all__ = [
    "BY_NET",
    "BY_PAR",
    "DEFAULT_PAR_TABLE",
    "DEFAULT_RULES",
    "HCP_TOTAL",
    "IMP_STEPS",
    "NIGHT_MEASURES",
    "NIGHT_RANKINGS",
    "PAR_HCP",
    "RANK_AVERAGE",
    "RANK_SIT_OUT_AVERAGE",
    "RANK_TOTAL",
    "ChicagoVulnerability",
    "Contract",
    "ContractItem",
    "ContractScore",
    "DealResult",
    "DealRow",
    "Doubling",
    "InvalidInput",
    "ItemKind",
    "Kind",
    "MatchComplete",
    "NextDeal",
    "NightLine",
    "NightMatch",
    "ParDeal",
    "ParSheet",
    "ParTable",
    "Party",
    "PassedOut",
    "Played",
    "Round",
    "Rules",
    "ScoreItem",
    "ScoringError",
    "Seat",
    "Sheet",
    "Side",
    "Strain",
    "Table",
    "TieRule",
    "Winner",
    "check_next",
    "check_round",
    "chicago_schedule",
    "first_round",
    "imps",
    "make_result",
    "moving_side",
    "par_deal",
    "parse_contract",
    "parse_kind",
    "parse_seat",
    "rank_night",
    "read_par",
    "round_robin",
    "row_readings",
    "score_chicago",
    "score_contract",
    "score_match",
    "score_rubber",
    "shared_ranks",
    "side_net",
    "winners_move",
]
