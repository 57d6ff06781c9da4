"""The built-in games. Importing this package registers each of them."""

from adjudicator.engine.registry import register

from .china import GAME as CHINA
from .doge import GAME as DOGE
from .founding_fathers import GAME as FOUNDING_FATHERS
from .nineteen_sixty import GAME as NINETEEN_SIXTY

register(CHINA)
register(DOGE)
register(FOUNDING_FATHERS)
register(NINETEEN_SIXTY)
