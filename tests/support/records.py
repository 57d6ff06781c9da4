"""The finished records of tests/record/fixtures that the browser tests verify."""

from __future__ import annotations

from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[1] / "record" / "fixtures"
# a finished game of each title, made by the newest published rules version
NEWEST = {
    "doge": "doge-rules-3.json.gz",
    "china": "china-rules-2-fortifications.json.gz",
    "1960": "1960-rules-gmt-2017-3.json.gz",
    "founding-fathers": "founding-fathers-rules-1.6-3-collapse.json.gz",
}
