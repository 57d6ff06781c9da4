"""A game's public log as an Atom feed (feedgenerator): one item per record entry that has public
log lines, newest first, so a club page or a feed reader can follow a game without polling the
page. Only what the public page shows goes in (the service's public log), rendered through the
same sanitising Markdown filter."""

from __future__ import annotations

from adjudicator.service import GameFeed, log_page_start

from .markdown import render_markdown


def atom_feed(feed: GameFeed, game_url: str) -> bytes:
    from feedgenerator import Atom1Feed

    atom = Atom1Feed(
        title=f"{feed.title} ({feed.status})",
        link=game_url,
        description=f"The public log of pbem game {feed.game_id}",
        feed_url=f"{game_url}/feed.atom",
        feed_guid=game_url,
        language="en",
    )
    for entry in feed.entries:
        first = entry.lines[0].markdown
        atom.add_item(
            title=f"#{entry.index}: {_plain(first)}",
            link=f"{game_url}/log?start={log_page_start(entry.index)}#entry-{entry.index}",
            unique_id=f"{game_url}#entry-{entry.index}",
            description=str(render_markdown("\n\n".join(line.markdown for line in entry.lines))),
            updateddate=entry.at,
            pubdate=entry.at,
        )
    return atom.writeString("utf-8").encode("utf-8")


def _plain(markdown: str, limit: int = 90) -> str:
    """A title line: the Markdown's text without emphasis marks, cut at `limit` characters."""
    text = " ".join(markdown.replace("*", "").replace("`", "").split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
