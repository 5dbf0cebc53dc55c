"""Services: the only code that writes. Keyword-only functions named <entity>_<action>."""

from .errors import DealProblemsError, DomainError, MatchStateError, StaleMatchError
from .matches import (
    deal_correct,
    deal_delete_last,
    deals_record,
    match_confirm,
    match_declare_clock,
    match_dispute,
    match_forfeit,
    match_import_deals,
    match_postpone,
    match_reopen,
    match_start,
    match_submit,
    match_void,
    matches_record_played,
)
from .rounds import can_start_clock, round_clock_start
from .derived import derived_refresh
from .figures import figures_refresh
from .rating import rating_refresh
from .standings import standing_part, standings_refresh

__all__ = [
    "DealProblemsError",
    "DomainError",
    "MatchStateError",
    "StaleMatchError",
    "can_start_clock",
    "round_clock_start",
    "deal_correct",
    "deal_delete_last",
    "deals_record",
    "match_confirm",
    "match_declare_clock",
    "match_dispute",
    "match_forfeit",
    "match_import_deals",
    "match_postpone",
    "match_reopen",
    "match_start",
    "rating_refresh",
    "derived_refresh",
    "figures_refresh",
    "standing_part",
    "standings_refresh",
    "match_submit",
    "match_void",
    "matches_record_played",
]

# schedules: league series by Berger tables, Monrad rounds, fixture list import
from .schedules import (  # noqa: E402
    FixtureImportError,
    ScheduleError,
    fixtures_import,
    schedule_generate_league,
    schedule_pair_next_round,
)

__all__ += [
    "FixtureImportError",
    "ScheduleError",
    "fixtures_import",
    "schedule_generate_league",
    "schedule_pair_next_round",
]

# manage: setting up a club's players, teams, competitions, rounds and matches
from .manage import (  # noqa: E402
    competition_save,
    match_create,
    match_schedule_update,
    player_save,
    round_save,
    team_save,
)

__all__ += [
    "competition_save",
    "match_create",
    "match_schedule_update",
    "player_save",
    "round_save",
    "team_save",
]

from .invitations import (  # noqa: E402
    invitation_answer,
    invitations_sync,
    signup_invitation_answer,
    signup_invitations_sync,
)

__all__ += ["invitation_answer", "invitations_sync", "signup_invitation_answer", "signup_invitations_sync"]

# deleting what was set up by mistake; archiving what has results
from .deleting import DeletionPlan, delete_or_archive, deletion_plan  # noqa: E402

__all__ += ["DeletionPlan", "delete_or_archive", "deletion_plan"]

# merging what was entered twice (beside deleting)
from .merging import MergePlan, merge, merge_plan  # noqa: E402

__all__ += ["MergePlan", "merge", "merge_plan"]

# individual competitions: signing players up, pairing a round
from .individual import individual_pair_round, individual_signup  # noqa: E402

__all__ += ["individual_pair_round", "individual_signup"]

# entry at the table: the table link, deals proposed and agreed there; photos of the signed paper
from .photos import PHOTO_MAX_BYTES, match_photo_add, photo_rules  # noqa: E402
from .table import (  # noqa: E402
    link_is_open,
    normalise_code,
    running_clock,
    sides_of_codes,
    table_conflict_set_aside,
    table_deal_answer,
    table_deal_propose,
    table_link_issue,
    table_link_withdraw,
    table_links_issue_for_round,
    table_protocol_confirm,
    table_typing_note,
)

__all__ += [
    "PHOTO_MAX_BYTES", "match_photo_add", "link_is_open", "normalise_code", "table_deal_answer",
    "table_deal_propose", "table_link_issue", "table_link_withdraw", "table_links_issue_for_round",
    "table_protocol_confirm", "table_typing_note", "running_clock", "sides_of_codes", "table_conflict_set_aside", "photo_rules",
]  # fmt: skip

# seasons: a closed season's competitions are archives, which every writer above refuses to change
from .seasons import archive_refusal  # noqa: E402

__all__ += ["archive_refusal"]

# the club's member list: a file read, kept until saved or discarded, saved all or nothing
from .members import MemberListChangedError, member_list_discard, member_list_keep, members_import  # noqa: E402

__all__ += ["MemberListChangedError", "member_list_discard", "member_list_keep", "members_import"]

# the season's chores: a match moved by agreement, reminders about overdue protocols, check-in
# before the draw, and the competitions' enrolment rules (checked inside the services above)
from .checkin import check_in_save  # noqa: E402
from .enrolment import EnrolmentError  # noqa: E402
from .moves import match_move_answer, match_move_approve, match_move_propose  # noqa: E402
from .reminders import reminders_send  # noqa: E402

__all__ += ["EnrolmentError", "check_in_save", "match_move_answer", "match_move_approve", "match_move_propose",
            "reminders_send"]  # fmt: skip

# championships: stages of heats, who goes on from each, withdrawals, the next stage entered
from .championships import (  # noqa: E402
    championship_heat_add,
    championship_save,
    championship_stage_save,
    stage_qualifiers_confirm,
    stage_withdrawal_add,
)

__all__ += [
    "championship_heat_add", "championship_save", "championship_stage_save", "stage_qualifiers_confirm",
    "stage_withdrawal_add",
]  # fmt: skip
