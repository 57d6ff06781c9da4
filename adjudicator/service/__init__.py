"""Use cases. Adapters (web, workers, CLI, e-mail) call these and nothing below them.

Every function takes an open Session first and commits nothing: wrap calls in
``with adjudicator.store.transaction() as s:`` and enqueue the returned tasks after the commit.
See docs/service-api.md. The modules below this face form layers, imports pointing down only
(docs/architecture.md, "Inside the service").
"""

from .absence import Absence, absences, cancel_absence, my_absence, set_absence
from .bounces import envelope_sender, message_id_for
from .calendars import SeatDeadline, seat_deadline
from .clock import format_deadline, utcnow
from .content import ContentInfo, install_content, list_content, load_installed
from .deadlines import due_games, sweep_deadlines, sweep_game
from .digests import send_digests
from .directors import CreatedDirector, DirectedGame, DirectorPage, create_director, director_page
from .errors import BadOrder, Conflict, Forbidden, NotFound, NotYourTurn, ServiceError, StaleOrder, TooMany
from .health import HealthFigures, health_figures
from .home import HomeSeat, HomeTournament, PlayerHome, home_deadlines, join_details, player_home, update_home
from .inbound import process as process_mail
from .inbound import receive as receive_mail
from .inboxdrain import Drained
from .inboxdrain import drain as drain_inbox
from .integrity import RecordsChecked, check_records
from .lifecycle import create_game, join_game, start_game
from .live import game_version, seat_version
from .lobby import (
    SEATING,
    Lobby,
    lobby,
    open_in_lobby,
    seat_signups,
    set_signup,
    sign_up,
    signup_status,
    take_seat,
)
from .moderation import (
    extend_deadline,
    force_defaults,
    game_pace,
    hand_to_substitute,
    pause,
    replace_seat,
    resume,
    set_pace,
)
from .moderator_tools import (
    RemovedSeat,
    TournamentBroadcast,
    broadcast,
    broadcast_tournament,
    declare_result,
    remove_seat,
    shorten_deadline,
)
from .notes import MAX_NOTES, save_notes, seat_notes
from .orders import order_lines, preview_plan, submit, submit_order
from .players import MAIL_MODES, language_of, resign, seat_settings, update_settings
from .practice import create_practice_game, fill_due_lobby_games, set_lobby_fill
from .press import PressLine, mark_press_read, press_for, public_press, send_press
from .ratings import PlayerPage, RatedPlayer, player_page, rating_table, recompute_ratings
from .reading import (
    admin_page,
    check_invite,
    export_record,
    full_record,
    list_games,
    log_page_start,
    log_page_starts,
    mail_log,
    public_feed,
    public_game,
    public_log,
    seat_decision,
    seat_log,
    seat_state,
)
from .recovery import FailedRow, SweepResult, failed_rows, not_handed_on, retry_failed
from .recovery import sweep as recovery_sweep
from .recovery import wake as recovery_wake
from .recovery import wake_grace as recovery_wake_grace
from .retention import DROPPED_DAYS, OUTBOX_BODY_DAYS, Pruned, prune
from .reveal import reveal
from .rollback import rollback
from .serverkey import server_key
from .signin import (
    SignInRefused,
    account_by_calendar,
    check_sign_in,
    end_sessions,
    normal_address,
    redeem_sign_in,
    request_sign_in,
    session_generation,
)
from .standing import replace_all as set_standing_orders
from .standing import standing_lines
from .substitutes import play_substitutes, run_substitutes
from .tokens import MailKey
from .tournaments import (
    SCORING,
    Standings,
    count_substitute_games,
    set_scoring,
    standings_csv,
    tournament_standings,
)
from .types import (
    CreatedGame,
    DeadlinePolicy,
    GameFeed,
    GameSummary,
    JoinedSeat,
    LogEntry,
    LogLine,
    PublicPage,
    Receipt,
    SeatInfo,
    SeatPage,
    StandingLine,
    Submission,
    Task,
    TaskKind,
)
from .undo import Undone, undo
from .verified import confirm_by_link, confirmed_address, release_held
from .webhooks import MAX_RESPONSE_BYTES as WEBHOOK_MAX_RESPONSE_BYTES
from .webhooks import TIMEOUT_SECONDS as WEBHOOK_TIMEOUT_SECONDS
from .webhooks import Target as WebhookTarget
from .webhooks import WebhookUrlError
from .webhooks import resolve as resolve_webhook

__all__ = [
    "HealthFigures", "RecordsChecked", "check_records", "health_figures",
    "BadOrder", "admin_page", "check_invite", "Conflict", "CreatedGame", "GameFeed", "LogEntry", "public_feed",
    "DeadlinePolicy", "Forbidden", "GameSummary", "JoinedSeat",
    "LogLine", "NotFound", "NotYourTurn", "PublicPage", "Receipt", "SeatInfo", "SeatPage", "ServiceError",
    "StaleOrder", "Submission", "Task", "TaskKind", "create_game", "export_record", "extend_deadline", "full_record",
    "force_defaults", "format_deadline", "join_game", "list_games", "order_lines", "pause",
    "public_game", "public_log", "seat_log", "replace_seat", "resume", "reveal", "seat_state", "start_game", "submit",
    "submit_order", "sweep_deadlines", "utcnow",
    "MAIL_MODES", "MailKey", "PressLine", "mark_press_read", "press_for", "process_mail", "public_press",
    "receive_mail",
    "Absence", "absences", "cancel_absence", "my_absence",
    "CreatedDirector", "DirectedGame", "DirectorPage", "create_director", "director_page",
    "ContentInfo", "install_content", "list_content", "load_installed",
    "due_games", "sweep_game", "set_pace", "game_pace", "hand_to_substitute", "seat_decision", "set_standing_orders",
    "standing_lines", "StandingLine",
    "SeatDeadline", "seat_deadline", "PlayerPage", "player_page", "recompute_ratings",
    "HomeSeat", "HomeTournament", "PlayerHome", "home_deadlines", "join_details", "player_home", "update_home",
    "SEATING", "Lobby", "lobby", "open_in_lobby", "seat_signups", "set_signup", "sign_up", "signup_status", "take_seat",
    "SignInRefused", "account_by_calendar", "check_sign_in", "normal_address", "redeem_sign_in", "request_sign_in",
    "end_sessions", "session_generation",
    "SCORING", "Standings", "count_substitute_games", "set_scoring", "standings_csv", "tournament_standings",
    "RemovedSeat", "TournamentBroadcast", "broadcast", "broadcast_tournament", "declare_result", "remove_seat",
    "rollback", "shorten_deadline", "Undone", "undo", "preview_plan",
    "game_version", "seat_version", "MAX_NOTES", "save_notes", "seat_notes",
    "create_practice_game", "fill_due_lobby_games", "set_lobby_fill", "play_substitutes", "run_substitutes",
    "TooMany", "confirm_by_link", "confirmed_address", "release_held",
    # for the workers and the CLI: mail's envelope and recovery, retention, the server's key
    "envelope_sender", "message_id_for", "Drained", "drain_inbox", "FailedRow", "SweepResult", "failed_rows",
    "not_handed_on", "retry_failed", "recovery_sweep", "recovery_wake", "recovery_wake_grace",
    "DROPPED_DAYS", "OUTBOX_BODY_DAYS", "Pruned", "prune", "server_key", "RatedPlayer", "rating_table",
    "WEBHOOK_MAX_RESPONSE_BYTES", "WEBHOOK_TIMEOUT_SECONDS", "WebhookTarget", "WebhookUrlError", "resolve_webhook",
    "log_page_start", "log_page_starts",
    "language_of", "mail_log", "resign", "seat_settings", "send_digests", "send_press", "set_absence",
    "update_settings",
]
