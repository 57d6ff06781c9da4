"""Use cases. Adapters (web, workers, CLI, e-mail) call these and nothing below them.

Every function takes an open Session first and commits nothing: wrap calls in
``with adjudicator.store.transaction() as s:`` and enqueue the returned tasks after the commit.
See docs/service-api.md. The modules below this face form layers, imports pointing down only
(docs/architecture.md, "Inside the service").
"""

from .common.clock import format_deadline, utcnow
from .common.content import ContentInfo, install_content, list_content, load_installed
from .common.errors import BadOrder, Conflict, Forbidden, NotFound, NotYourTurn, ServiceError, StaleOrder, TooMany
from .common.serverkey import server_key
from .common.tokens import MailKey
from .common.types import (
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
from .common.verified import confirm_by_link, confirmed_address, release_held
from .history.live import game_version, seat_version
from .history.ratings import PlayerPage, RatedPlayer, player_page, rating_table, recompute_ratings
from .mail.bounces import envelope_sender, message_id_for
from .mail.inbound import arrived as arrived_mail
from .mail.inbound import process as process_mail
from .mail.inbound import receive as receive_mail
from .mail.inbound import receive_many as receive_mails
from .mail.inboxdrain import Drained
from .mail.inboxdrain import drain as drain_inbox
from .moderation.directors import CreatedDirector, DirectedGame, DirectorPage, create_director, director_page
from .moderation.moderation import (
    extend_deadline,
    force_defaults,
    game_pace,
    hand_to_substitute,
    pause,
    replace_seat,
    resume,
    set_pace,
)
from .moderation.moderator_tools import (
    RemovedSeat,
    TournamentBroadcast,
    broadcast,
    broadcast_tournament,
    declare_result,
    remove_seat,
    shorten_deadline,
)
from .moderation.tournaments import (
    SCORING,
    Standings,
    count_substitute_games,
    set_scoring,
    standings_csv,
    tournament_standings,
)
from .pages.reading import (
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
from .people.calendars import SeatDeadline, seat_deadline
from .people.home import HomeSeat, HomeTournament, PlayerHome, home_deadlines, join_details, player_home, update_home
from .people.notes import MAX_NOTES, save_notes, seat_notes
from .people.players import MAIL_MODES, language_of, resign, seat_settings, update_settings
from .people.press import PressLine, mark_press_read, press_for, public_press, send_press
from .people.signin import (
    SignInRefused,
    account_by_calendar,
    check_sign_in,
    end_sessions,
    normal_address,
    redeem_sign_in,
    request_sign_in,
    session_generation,
)
from .people.webhooks import MAX_RESPONSE_BYTES as WEBHOOK_MAX_RESPONSE_BYTES
from .people.webhooks import TIMEOUT_SECONDS as WEBHOOK_TIMEOUT_SECONDS
from .people.webhooks import Target as WebhookTarget
from .people.webhooks import WebhookUrlError
from .people.webhooks import resolve as resolve_webhook
from .play.absence import Absence, absences, cancel_absence, my_absence, set_absence
from .play.deadlines import due_games, sweep_deadlines, sweep_game
from .play.digests import send_digests
from .play.orders import order_lines, preview_plan, submit, submit_order
from .play.reveal import reveal
from .play.rollback import rollback
from .play.standing import replace_all as set_standing_orders
from .play.standing import standing_lines
from .play.substitutes import play_substitutes, run_substitutes
from .play.undo import Undone, undo
from .seating.lifecycle import create_game, join_game, start_game
from .seating.lobby import (
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
from .seating.practice import create_practice_game, fill_due_lobby_games, set_lobby_fill
from .upkeep.health import HealthFigures, health_figures
from .upkeep.integrity import RecordsChecked, check_records
from .upkeep.recovery import FailedRow, SweepResult, failed_rows, not_handed_on, retry_failed
from .upkeep.recovery import sweep as recovery_sweep
from .upkeep.recovery import wake as recovery_wake
from .upkeep.recovery import wake_grace as recovery_wake_grace
from .upkeep.retention import DROPPED_DAYS, OUTBOX_BODY_DAYS, Pruned, prune

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
    "receive_mails",
    "arrived_mail",
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
