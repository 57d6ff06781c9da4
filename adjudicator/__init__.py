"""pbem adjudicator: pure game engines plus the record, store, mail and service layers."""

from adjudicator.engine.registry import add_default_source

# The built-in games, for when the installed metadata carries no `pbem.games` entry points (a
# clean clone run from its directory, an install made before they were declared). Imported on
# the first game lookup, never here: importing the package stays cheap.
add_default_source("adjudicator.games")
