"""Services: the only code that writes. Keyword-only functions named <entity>_<action>."""

from .errors import DealProblemsError, DomainError, MatchStateError, StaleMatchError
from .matches import (
    deal_correct,
    deal_delete_last,
    deals_record,
    match_confirm,
    match_declare_clock,
    match_forfeit,
    match_import_deals,
    match_postpone,
    match_reopen,
    match_start,
    match_state,
    match_submit,
    match_void,
)

__all__ = [
    "DealProblemsError",
    "DomainError",
    "MatchStateError",
    "StaleMatchError",
    "deal_correct",
    "deal_delete_last",
    "deals_record",
    "match_confirm",
    "match_declare_clock",
    "match_forfeit",
    "match_import_deals",
    "match_postpone",
    "match_reopen",
    "match_start",
    "match_state",
    "match_submit",
    "match_void",
]
